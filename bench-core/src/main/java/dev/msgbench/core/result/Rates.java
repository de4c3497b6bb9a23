package dev.msgbench.core.result;

/**
 * The rates of a run's measured window, msg/s.
 *
 * @param targetMsgsPerSec    what the schedule asked for; 0 when unpaced
 * @param achievedMsgsPerSec  measured messages sent over the time it took to send them
 * @param receivedMsgsPerSec  measured messages received over the time it took to receive them
 * @param targetMissed        achieved more than 1% below what the schedule asked for
 * @param maxBehindScheduleMs the largest send delay (actual minus intended send time)
 */
public record Rates(double targetMsgsPerSec, double achievedMsgsPerSec, double receivedMsgsPerSec, boolean targetMissed,
                    double maxBehindScheduleMs) {
}
