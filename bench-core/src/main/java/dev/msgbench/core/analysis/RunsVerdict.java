package dev.msgbench.core.analysis;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Whether two sets of runs differ by more than the runs differ among themselves: one figure per
 * run (the p99 of each run, its GC time, ...) on each side, and a verdict of better, worse or
 * within noise.
 *
 * <p>The rule: a two-sided Mann-Whitney rank test over the runs at the 5% level, with the exact
 * p-value of the rank sum (every way of splitting the pooled runs into two sides of these sizes
 * counted, tied values sharing their mid-rank), not the normal approximation, which is wrong for
 * the handful of runs a benchmark can afford. Ranks, because one run that hit a GC storm or a
 * busy neighbour must not decide a comparison of means; exact, because with 5 runs a side the
 * approximation misstates p by a factor that matters at 5%.
 *
 * <p>Few runs cannot reach the level whatever they measure: the most extreme split of 3 runs
 * against 3 has p = 2/20 = 0.1, of 4 against 4 p = 2/70 = 0.029. So a verdict needs
 * {@link #fewestRunsPerSide()} (4) runs a side; fewer give the spread and "no verdict", never a
 * verdict the runs cannot carry.
 */
public final class RunsVerdict {

    /** The level of the test: a difference is called when p is at most this. */
    public static final double LEVEL = 0.05;
    /** Pooled runs above which the exact distribution is too costly and the normal approximation is used instead. */
    static final int EXACT_LIMIT = 100;

    public enum Outcome { BETTER, WORSE, WITHIN_NOISE, NO_VERDICT }

    /**
     * One figure's verdict.
     *
     * @param pValue two-sided p of the rank test; NaN with no verdict
     * @param ratio  the other side's median run over the base's; NaN where the base's median is 0 or a side is empty
     * @param baseRuns  runs of the base that measured the figure
     * @param otherRuns runs of the other side that measured it
     */
    public record Verdict(Outcome outcome, double pValue, double ratio, int baseRuns, int otherRuns) {

        /** As tables print it: "worse x1.32 (p=0.008)", "within noise (p=0.42)", "no verdict (3 vs 3 runs)". */
        public String text() {
            return switch (outcome) {
                case BETTER, WORSE -> (outcome == Outcome.BETTER ? "better" : "worse")
                        + (Double.isNaN(ratio) ? "" : String.format(Locale.US, " x%.2f", ratio))
                        + String.format(Locale.US, " (p=%.3f)", pValue);
                case WITHIN_NOISE -> String.format(Locale.US, "within noise (p=%.2f)", pValue);
                case NO_VERDICT -> "no verdict (" + baseRuns + " vs " + otherRuns + " runs)";
            };
        }
    }

    private RunsVerdict() {
    }

    /** The rule in one line, for output that prints verdicts. */
    public static String rule() {
        return String.format(Locale.US, "two-sided Mann-Whitney rank test over the runs, exact p, at %.0f%%; "
                + "a verdict needs %d runs a side (%d a side cannot reach it: the smallest p is %.3f)", LEVEL * 100,
                fewestRunsPerSide(), fewestRunsPerSide() - 1, smallestP(fewestRunsPerSide() - 1, fewestRunsPerSide() - 1));
    }

    /** The fewest runs a side, the same on both, whose most extreme split reaches {@link #LEVEL}: 4. */
    public static int fewestRunsPerSide() {
        int k = 1;
        while (smallestP(k, k) > LEVEL) {
            k++;
        }
        return k;
    }

    /** The smallest two-sided p that n runs against m can give (all of one side below all of the other, no ties). */
    public static double smallestP(int n, int m) {
        if (n == 0 || m == 0) {
            return 1;
        }
        return Math.min(1, 2 / binomial(n + m, n));
    }

    /**
     * The verdict on {@code other} against {@code base}; NaN runs (a run that did not measure the
     * figure) are left out.
     *
     * @param higherIsBetter true for rates, false for latencies, pauses and allocation
     */
    public static Verdict judge(double[] base, double[] other, boolean higherIsBetter) {
        double[] a = measured(base);
        double[] b = measured(other);
        double ratio = ratio(a, b);
        if (smallestP(a.length, b.length) > LEVEL) {
            return new Verdict(Outcome.NO_VERDICT, Double.NaN, ratio, a.length, b.length);
        }
        double p = pValue(a, b);
        if (p > LEVEL) {
            return new Verdict(Outcome.WITHIN_NOISE, p, ratio, a.length, b.length);
        }
        boolean otherHigher = rankSum2(b, a) * a.length > rankSum2(a, b) * b.length;
        Outcome outcome = otherHigher == higherIsBetter ? Outcome.BETTER : Outcome.WORSE;
        return new Verdict(outcome, p, ratio, a.length, b.length);
    }

    /** The median of the runs that measured the figure; NaN when none did. */
    public static double median(double[] runs) {
        double[] v = measured(runs);
        if (v.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The two-sided p-value of the rank sum of {@code a} among the pooled runs: the share of all
     * ways of choosing a's size from the pooled mid-ranks whose rank sum is at least as far from
     * its mean as a's. Exact up to {@link #EXACT_LIMIT} pooled runs.
     */
    public static double pValue(double[] a, double[] b) {
        int n = a.length;
        int total = n + b.length;
        if (n == 0 || b.length == 0) {
            return 1;
        }
        int[] ranks2 = doubledMidRanks(a, b);
        long observed = 0;
        for (int i = 0; i < n; i++) {
            observed += ranks2[i];
        }
        // in doubled ranks every mid-rank is a whole number and the mean n(N+1) is too
        long mean = (long) n * (total + 1);
        long distance = Math.abs(observed - mean);
        if (total > EXACT_LIMIT) {
            return normalP(ranks2, n, distance);
        }
        int maxSum = total * (total + 1);
        // ways[k][s]: subsets of k of the ranks seen so far whose doubled sum is s
        double[][] ways = new double[n + 1][maxSum + 1];
        ways[0][0] = 1;
        for (int i = 0; i < total; i++) {
            int r = ranks2[i];
            for (int k = Math.min(i + 1, n); k >= 1; k--) {
                double[] to = ways[k];
                double[] from = ways[k - 1];
                for (int s = maxSum; s >= r; s--) {
                    to[s] += from[s - r];
                }
            }
        }
        double all = 0;
        double extreme = 0;
        for (int s = 0; s <= maxSum; s++) {
            all += ways[n][s];
            if (Math.abs(s - mean) >= distance) {
                extreme += ways[n][s];
            }
        }
        return Math.min(1, extreme / all);
    }

    /** Many runs: the rank sum's normal approximation with the tie correction, and a continuity correction. */
    private static double normalP(int[] ranks2, int n, long distance2) {
        int total = ranks2.length;
        int m = total - n;
        double sumSquares = 0;
        for (int r : ranks2) {
            sumSquares += (r / 2.0) * (r / 2.0);
        }
        // variance of a's rank sum drawn without replacement from the pooled mid-ranks
        double meanRank = (total + 1) / 2.0;
        double populationVariance = sumSquares / total - meanRank * meanRank;
        double variance = (double) n * m / (total - 1) * populationVariance;
        if (variance <= 0) {
            return 1;
        }
        double z = Math.max(0, distance2 / 2.0 - 0.5) / Math.sqrt(variance);
        return Math.min(1, 2 * upperNormalTail(z));
    }

    /** P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26, error under 1.5e-7). */
    private static double upperNormalTail(double z) {
        double x = z / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * Math.exp(-x * x);
        return erfc / 2;
    }

    /** Doubled mid-ranks of a's runs then b's, among all of them (doubled so that ties stay whole numbers). */
    private static int[] doubledMidRanks(double[] a, double[] b) {
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        Integer[] order = IntStream.range(0, pooled.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> pooled[i]));
        int[] ranks2 = new int[pooled.length];
        for (int i = 0; i < order.length; ) {
            int j = i;
            while (j + 1 < order.length && pooled[order[j + 1]] == pooled[order[i]]) {
                j++;
            }
            // positions i..j (0-based) share the mid-rank ((i+1)+(j+1))/2
            for (int k = i; k <= j; k++) {
                ranks2[order[k]] = i + j + 2;
            }
            i = j + 1;
        }
        return ranks2;
    }

    /** The doubled rank sum of {@code side} among side and other. */
    private static long rankSum2(double[] side, double[] other) {
        int[] ranks2 = doubledMidRanks(side, other);
        long sum = 0;
        for (int i = 0; i < side.length; i++) {
            sum += ranks2[i];
        }
        return sum;
    }

    private static double ratio(double[] base, double[] other) {
        double b = median(base);
        double o = median(other);
        return b == 0 || Double.isNaN(b) || Double.isNaN(o) ? Double.NaN : o / b;
    }

    private static double[] measured(double[] runs) {
        return Arrays.stream(runs).filter(v -> !Double.isNaN(v)).toArray();
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }
}
