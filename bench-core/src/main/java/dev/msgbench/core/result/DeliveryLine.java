package dev.msgbench.core.result;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a run's system promised about order and copies, as result.json's settings record it
 * (under {@link #KEY}, only where the system promised less than order within a lane and no
 * copies), and the summary's words for its duplicates and reorders: a redelivery of an
 * at-least-once queue is counted as a duplicate and named a redelivery, a reorder where no order
 * was promised is counted and named as allowed. Neither is ever a fault; only loss is.
 */
public final class DeliveryLine {

    /** The settings key of the promise. */
    public static final String KEY = "delivery";
    static final String LABEL = "label";
    static final String ORDER = "order";
    static final String REDELIVERIES = "redeliveries";
    /** The key, below {@link #KEY}, of what the client counted of redeliveries: each worker of a run has its own. */
    public static final String WITNESS = "witness";
    static final String ORDER_NOT_PROMISED = "not promised: reorders are counted, not faults";
    static final String REDELIVERED = "by design (at-least-once): each is counted as a duplicate, not as a fault";

    private DeliveryLine() {
    }

    /** The settings entry of a system that promised no order, or redelivers by design. */
    public static Map<String, Object> describe(String label, boolean orderPromised, boolean redelivers, String witness) {
        Map<String, Object> d = new LinkedHashMap<>();
        if (label != null) {
            d.put(LABEL, label);
        }
        d.put(ORDER, orderPromised ? "promised within a lane" : ORDER_NOT_PROMISED);
        d.put(REDELIVERIES, redelivers ? REDELIVERED : "none by design");
        if (witness != null) {
            d.put(WITNESS, witness);
        }
        return d;
    }

    /** Whether the run's system delivers again by design, so that its duplicates are redeliveries. */
    public static boolean redelivers(RunResult r) {
        return REDELIVERED.equals(entry(r).get(REDELIVERIES));
    }

    /** Whether the run's system promised no order, so that its reorders are allowed. */
    public static boolean orderNotPromised(RunResult r) {
        return ORDER_NOT_PROMISED.equals(entry(r).get(ORDER));
    }

    /** "duplicated 12 (redelivered)": the summary's count of copies, named as the system's promise names them. */
    static String duplicated(RunResult r) {
        return String.format(Locale.US, "duplicated %,d%s", r.counts().duplicated(),
                redelivers(r) && r.counts().duplicated() > 0 ? " (redelivered)" : "");
    }

    /** "reordered 40 (order not promised)". */
    static String reordered(RunResult r) {
        return String.format(Locale.US, "reordered %,d%s", r.counts().reordered(),
                orderNotPromised(r) && r.counts().reordered() > 0 ? " (order not promised)" : "");
    }

    /**
     * "delivery: Kafka share group: at-least-once, no order: 12 redeliveries counted as duplicates, not
     * faults; 40 reorders, not promised; ..." or null where the system promised order and no copies.
     */
    public static String of(RunResult r) {
        Map<?, ?> d = entry(r);
        if (d.isEmpty()) {
            return null;
        }
        StringBuilder line = new StringBuilder("delivery: ");
        if (d.get(LABEL) != null) {
            line.append(d.get(LABEL)).append(": ");
        }
        Counts c = r.counts();
        if (redelivers(r)) {
            line.append(String.format(Locale.US, "%,d redeliver%s counted as duplicates, not faults", c.duplicated(),
                    c.duplicated() == 1 ? "y" : "ies"));
        } else {
            line.append(String.format(Locale.US, "%,d duplicated", c.duplicated()));
        }
        if (orderNotPromised(r)) {
            line.append(String.format(Locale.US, "; %,d reordered, which it allows (order not promised)", c.reordered()));
        }
        if (d.get(WITNESS) != null) {
            line.append("; ").append(d.get(WITNESS));
        }
        return line.toString();
    }

    private static Map<?, ?> entry(RunResult r) {
        return r.settings() != null && r.settings().get(KEY) instanceof Map<?, ?> d ? d : Map.of();
    }
}
