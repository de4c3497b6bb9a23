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
 */
public record FaultReport(FaultEvent event, Double longestNoDeliverySeconds, Double maxLatencyAfterMs,
                          Double recoverySeconds) {
}
