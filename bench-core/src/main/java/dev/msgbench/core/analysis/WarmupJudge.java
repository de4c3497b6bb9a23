package dev.msgbench.core.analysis;

import java.util.List;

/**
 * Decides, second by second, when a warm-up has settled: for {@code --warmup auto}, measuring
 * starts once each of the last two windows of {@link #WINDOW_SECONDS} seconds looks like a
 * system in its steady state, and both at the same level of latency. One window is not enough:
 * a fresh Kafka broker held a plateau of about 1.8 s for five seconds before its backlog drained.
 *
 * <p>Three things must hold over a window, each with room for the noise of a busy machine
 * (found on a fresh Kafka broker at 2,000 msg/s on two shared cores, whose per-second p50 jumps
 * between 4 and 80 ms once it is warm):
 * <ul>
 * <li>the backlog (messages in flight) neither grows nor drains: it ends within a tenth of a
 *     second of sending of where it began, and its highest value is at most twice its lowest
 *     plus as much. A backlog draining is the tail of a transient, however calm the latency
 *     looks meanwhile;</li>
 * <li>the consumers keep up: what was received is within a tenth of what was sent;</li>
 * <li>the latency holds one level: the per-second p50 within a factor of three of the median
 *     of those seconds (plus 2 ms), all seconds but one.</li>
 * </ul>
 * A plateau of high latency with a constant backlog for ten seconds passes, and rightly: a
 * system held at its capacity is in a steady state; the steadiness check of the measured window
 * reports whatever changes later.
 */
public final class WarmupJudge {

    public static final int WINDOW_SECONDS = 5;
    private static final double BACKLOG_FACTOR = 2.0;
    private static final double BACKLOG_SLACK_SECONDS = 0.1;
    private static final double RECEIVED_TOLERANCE = 0.1;
    private static final double LATENCY_FACTOR = 3.0;
    private static final double LATENCY_SLACK_MS = 2.0;
    private static final int SECONDS_ALLOWED_OUT = 1;

    private WarmupJudge() {
    }

    /**
     * @param seconds        the warm-up so far, second by second, in order
     * @param rateMsgsPerSec the scheduled rate
     * @return whether measuring may start now
     */
    public static boolean settled(List<SecondStats> seconds, double rateMsgsPerSec) {
        int n = seconds.size();
        if (n < 2 * WINDOW_SECONDS) {
            return false;
        }
        List<SecondStats> earlier = seconds.subList(n - 2 * WINDOW_SECONDS, n - WINDOW_SECONDS);
        List<SecondStats> last = seconds.subList(n - WINDOW_SECONDS, n);
        return steady(earlier, rateMsgsPerSec) && steady(last, rateMsgsPerSec)
                && sameLevel(medianP50(earlier), medianP50(last));
    }

    private static boolean steady(List<SecondStats> window, double rate) {
        return backlogHolds(window, rate) && consumersKeepUp(window) && latencyHolds(window);
    }

    private static boolean sameLevel(double a, double b) {
        return a <= LATENCY_FACTOR * b + LATENCY_SLACK_MS && b <= LATENCY_FACTOR * a + LATENCY_SLACK_MS;
    }

    private static double medianP50(List<SecondStats> window) {
        return Steadiness.median(window.stream().mapToDouble(SecondStats::p50Ms).toArray());
    }

    private static boolean backlogHolds(List<SecondStats> last, double rate) {
        long most = last.stream().mapToLong(SecondStats::inFlight).max().orElseThrow();
        long least = last.stream().mapToLong(SecondStats::inFlight).min().orElseThrow();
        long change = last.get(last.size() - 1).inFlight() - last.get(0).inFlight();
        double slack = Math.max(10, rate * BACKLOG_SLACK_SECONDS);
        return most <= BACKLOG_FACTOR * least + slack && Math.abs(change) <= slack;
    }

    private static boolean consumersKeepUp(List<SecondStats> last) {
        long sent = last.stream().mapToLong(SecondStats::sent).sum();
        long received = last.stream().mapToLong(SecondStats::received).sum();
        return sent > 0 && Math.abs(received - sent) <= RECEIVED_TOLERANCE * sent;
    }

    private static boolean latencyHolds(List<SecondStats> last) {
        if (!last.stream().allMatch(SecondStats::delivered)) {
            return false;
        }
        double median = medianP50(last);
        long out = last.stream().mapToDouble(SecondStats::p50Ms).filter(v -> !sameLevel(v, median)).count();
        return out <= SECONDS_ALLOWED_OUT;
    }
}
