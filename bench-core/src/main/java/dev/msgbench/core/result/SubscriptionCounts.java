package dev.msgbench.core.result;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * What one subscription of one topic received, as result.json records it: every subscription
 * expects every message of its topic, so a message it missed is lost for it alone.
 *
 * @param topic              from 0, as the run named it (RUNID-t&lt;topic&gt;)
 * @param subscription       of the topic, from 0
 * @param expected           messages sent to the topic
 * @param received           distinct messages it received
 * @param acknowledgedLost   acknowledged by the system and never received by it
 * @param unacknowledgedLost never received by it and never acknowledged (or failed)
 */
public record SubscriptionCounts(int topic, int subscription, long expected, long received, long acknowledgedLost,
                                 long unacknowledgedLost, long duplicated, long reordered, long late) {

    @JsonIgnore
    public long lost() {
        return acknowledgedLost + unacknowledgedLost;
    }
}
