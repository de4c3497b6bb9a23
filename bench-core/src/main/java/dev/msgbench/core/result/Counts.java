package dev.msgbench.core.result;

import com.fasterxml.jackson.annotation.JsonIgnore;

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
 */
public record Counts(long sent, long acknowledged, long sendErrors, long received, long acknowledgedLost,
                     long unacknowledgedLost, long duplicated, long reordered, long late, long unsent, long foreign,
                     long measuredSent) {

    /** Sent and never received, acknowledged or not. */
    @JsonIgnore
    public long lost() {
        return acknowledgedLost + unacknowledgedLost;
    }
}
