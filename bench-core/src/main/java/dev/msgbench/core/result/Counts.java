package dev.msgbench.core.result;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The messages of a run, whole run (warm-up included).
 *
 * @param received           distinct messages received (copies not counted again)
 * @param acknowledgedLost   acknowledged by the system and never received: a broken promise
 * @param unacknowledgedLost never received and never acknowledged (or failed): allowed by what the
 *                           system promised. Every loss is this where the system acknowledges nothing
 * @param duplicated         extra copies received
 * @param reordered          arrived after a later message of the same stream and lane
 * @param late               arrived too far behind their stream to be checked for duplication
 * @param unsent             scheduled and never sent (the run stopped, or fell too far behind)
 * @param foreign            received but not sent by this run
 * @param measuredSent       sent with an intended time in the measured window
 * @param deliveriesExpected each message sent, once per subscription of its topic: {@code sent} times
 *                           --subscriptions-per-topic. Received, lost, duplicated, reordered and late
 *                           count deliveries, so that a message one subscription missed is lost for it alone
 * @param subscriptions      the same per topic and subscription; null for one topic with one subscription
 *                           (then the totals are its counts), and in results written before it was recorded
 * @param aborted            messages the system aborted on purpose (Kafka --abort-every: their transaction rolled
 *                           back): never acknowledged, expected by no consumer, so in no loss count; null where
 *                           the run aborted none
 * @param abortedDelivered   deliveries of aborted messages: where consumers read only what was committed, each is a
 *                           fault of the system; null where the run aborted none
 */
public record Counts(long sent, long acknowledged, long sendErrors, long received, long acknowledgedLost,
                     long unacknowledgedLost, long duplicated, long reordered, long late, long unsent, long foreign,
                     long measuredSent, long deliveriesExpected, List<SubscriptionCounts> subscriptions,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long aborted,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long abortedDelivered) {

    public Counts {
        // results written before fan-out expected each message once
        deliveriesExpected = deliveriesExpected == 0 ? sent : deliveriesExpected;
        subscriptions = subscriptions == null ? null : List.copyOf(subscriptions);
    }

    /** A run that aborted nothing on purpose, and results written before aborts were counted. */
    public Counts(long sent, long acknowledged, long sendErrors, long received, long acknowledgedLost,
                  long unacknowledgedLost, long duplicated, long reordered, long late, long unsent, long foreign,
                  long measuredSent, long deliveriesExpected, List<SubscriptionCounts> subscriptions) {
        this(sent, acknowledged, sendErrors, received, acknowledgedLost, unacknowledgedLost, duplicated, reordered, late,
                unsent, foreign, measuredSent, deliveriesExpected, subscriptions, null, null);
    }

    /** One topic with one subscription: each message sent is expected once. */
    public Counts(long sent, long acknowledged, long sendErrors, long received, long acknowledgedLost,
                  long unacknowledgedLost, long duplicated, long reordered, long late, long unsent, long foreign,
                  long measuredSent) {
        this(sent, acknowledged, sendErrors, received, acknowledgedLost, unacknowledgedLost, duplicated, reordered, late,
                unsent, foreign, measuredSent, sent, null);
    }

    /** Deliveries expected and never received, acknowledged or not. */
    @JsonIgnore
    public long lost() {
        return acknowledgedLost + unacknowledgedLost;
    }
}
