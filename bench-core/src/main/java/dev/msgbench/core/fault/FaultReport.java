package dev.msgbench.core.fault;

/**
 * One fault in result.json: what happened, and what the run saw after it.
 *
 * @param longestNoDeliverySeconds the longest time in which no message arrived, among those
 *                                 that end after the fault was asked and begin before the next
 *                                 fault; null if nothing was received
 * @param maxLatencyAfterMs        the highest latency of the one-second intervals from the one
 *                                 holding the fault to the next fault; null if none received
 * @param recoverySeconds          from the fault being asked to the start of the first one-second
 *                                 interval that begins once its effect is over (a pause resumed,
 *                                 a restarted node back, a kill done) and whose p99 is within 2x
 *                                 the p99 of the last interval before the fault; null if none
 *                                 was (not recovered)
 * @param p99BeforeMs              the p99 of the last one-second interval before the fault, the
 *                                 level recovery is judged against; null if none had a delivery
 * @param gapAfterEndSeconds       the longest time without a delivery that began once the fault's
 *                                 effect was over and before the next fault: a system slow to
 *                                 deliver again after a resume or restart (0 if there was none);
 *                                 null if the effect never ended
 * @param noDeliveryToEnd          whether the longest time without a delivery is the one that was
 *                                 still going on when the run ended (a node that never came back,
 *                                 a producer blocked to the end): nothing meant to arrive after the
 *                                 last delivery ever did; null in results written before it existed
 */
public record FaultReport(FaultEvent event, Double longestNoDeliverySeconds, Double maxLatencyAfterMs,
                          Double recoverySeconds, Double p99BeforeMs, Double gapAfterEndSeconds,
                          Boolean noDeliveryToEnd) {
}
