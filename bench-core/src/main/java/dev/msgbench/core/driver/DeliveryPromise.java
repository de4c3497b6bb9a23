package dev.msgbench.core.driver;

/**
 * What a system, as configured, promises about the order and the copies of what it delivers, so
 * that a run tells the copies and reorders it allows from faults. Neither is a fault in the
 * counts: only loss is; this says which of the two the system itself rules out.
 *
 * @param orderPromised whether the messages of one lane (see {@link MessageSink}) arrive in the
 *                      order they were sent; false for a queue whose consumers share records one by
 *                      one (a Kafka share group), where a reorder is what it allows
 * @param redelivers    whether the system delivers a message again by design (at-least-once: a
 *                      record released, or whose consumer went away, is delivered once more), so
 *                      that a duplicate is a redelivery, still counted
 * @param label         how the result names this way of delivering ("Kafka share group:
 *                      at-least-once, no order"); null for {@link #ORDERED}
 * @param witness       what the client itself counted of redeliveries, in one clause (Kafka's
 *                      delivery count of each record), beside the core's duplicate count; null where
 *                      it has nothing to say
 */
public record DeliveryPromise(boolean orderPromised, boolean redelivers, String label, String witness) {

    /** What a system promises unless it says otherwise: order within a lane, no copies by design. */
    public static final DeliveryPromise ORDERED = new DeliveryPromise(true, false, null, null);

    /** Whether this is anything but {@link #ORDERED}, and so worth a line of the result. */
    public boolean isSaid() {
        return !orderPromised || redelivers;
    }
}
