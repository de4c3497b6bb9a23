package dev.msgbench.core.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run measured the system in a steady state, or a transient such as a broker warming
 * up: the first part of the measured window is compared with its second half, per second.
 *
 * <p>"Beyond noise" is judged against the settled half itself: the first part must be worse than
 * the worst second of the second half, and by a clear factor, so that a GC pause or a single
 * slow second in a steady run does not mark it. Three signs are read:
 * <ul>
 * <li>latency: the median of the per-second p50 in the first part above twice the second half's
 *     median and above the highest per-second p50 of the second half;</li>
 * <li>backlog: more messages in flight at the end of the first part than at any second of the
 *     second half, by a factor of two and by more than a tenth of a second of sending;</li>
 * <li>falling behind: the backlog grows through the second half by more than a second of
 *     sending and is at its highest at the end (a system that does not keep up is not in a
 *     steady state either).</li>
 * </ul>
 *
 * @param verdict  what was judged
 * @param reasons  one sentence per sign seen; empty when steady or too short to judge
 * @param seconds  how many seconds were judged
 */
public record Steadiness(Verdict verdict, List<String> reasons, int seconds) {

    public enum Verdict {
        STEADY, NOT_STEADY, TOO_SHORT_TO_JUDGE;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /** Fewer seconds than this cannot tell a first part from a second half. */
    public static final int MIN_SECONDS = 6;
    private static final double FACTOR = 2.0;
    /** A latency difference under this is noise whatever the factor (sub-millisecond systems). */
    private static final double MIN_LATENCY_DIFFERENCE_MS = 1.0;

    public Steadiness {
        reasons = List.copyOf(reasons);
    }

    public boolean steady() {
        return verdict == Verdict.STEADY;
    }

    /**
     * @param seconds   the measured window, second by second, in order
     * @param rateMsgsPerSec the scheduled rate, which sets what backlog is noise; 0 when unpaced
     */
    public static Steadiness judge(List<SecondStats> seconds, double rateMsgsPerSec) {
        int n = seconds.size();
        if (n < MIN_SECONDS) {
            return new Steadiness(Verdict.TOO_SHORT_TO_JUDGE, List.of(), n);
        }
        int firstEnd = Math.max(2, n / 4);
        List<SecondStats> first = seconds.subList(0, firstEnd);
        List<SecondStats> secondHalf = seconds.subList(n - n / 2, n);
        List<String> reasons = new ArrayList<>();
        latency(first, secondHalf, reasons);
        backlog(first, secondHalf, rateMsgsPerSec, reasons);
        fallingBehind(secondHalf, rateMsgsPerSec, reasons);
        return new Steadiness(reasons.isEmpty() ? Verdict.STEADY : Verdict.NOT_STEADY, reasons, n);
    }

    private static void latency(List<SecondStats> first, List<SecondStats> secondHalf, List<String> reasons) {
        double firstMedian = median(first.stream().filter(SecondStats::delivered).mapToDouble(SecondStats::p50Ms).toArray());
        double[] settled = secondHalf.stream().filter(SecondStats::delivered).mapToDouble(SecondStats::p50Ms).toArray();
        if (Double.isNaN(firstMedian) || settled.length == 0) {
            return;
        }
        double settledMedian = median(settled);
        double settledWorst = Arrays.stream(settled).max().orElseThrow();
        if (firstMedian > FACTOR * settledMedian && firstMedian > settledWorst
                && firstMedian - settledMedian > MIN_LATENCY_DIFFERENCE_MS) {
            reasons.add(String.format(Locale.US,
                    "latency settled during the run: per-second p50 %s in the first %d s, %s in the last %d s",
                    ms(firstMedian), first.size(), ms(settledMedian), secondHalf.size()));
        }
    }

    private static void backlog(List<SecondStats> first, List<SecondStats> secondHalf, double rate,
                                List<String> reasons) {
        long early = first.get(first.size() - 1).inFlight();
        long settledMost = secondHalf.stream().mapToLong(SecondStats::inFlight).max().orElseThrow();
        if (early > FACTOR * settledMost && early - settledMost > rate / 10) {
            reasons.add(String.format(Locale.US,
                    "a backlog drained during the run: %,d messages in flight after %d s, at most %,d in the last %d s",
                    early, first.size(), settledMost, secondHalf.size()));
        }
    }

    private static void fallingBehind(List<SecondStats> secondHalf, double rate, List<String> reasons) {
        long start = secondHalf.get(0).inFlight();
        long end = secondHalf.get(secondHalf.size() - 1).inFlight();
        long most = secondHalf.stream().mapToLong(SecondStats::inFlight).max().orElseThrow();
        if (rate > 0 && end - start > rate && end == most) {
            reasons.add(String.format(Locale.US,
                    "falling behind: the backlog grew from %,d to %,d messages over the last %d s",
                    start, end, secondHalf.size()));
        }
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static String ms(double millis) {
        return millis >= 100 ? String.format(Locale.US, "%,.0f ms", millis) : String.format(Locale.US, "%.2f ms", millis);
    }
}
