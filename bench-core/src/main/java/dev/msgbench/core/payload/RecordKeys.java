package dev.msgbench.core.payload;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The record keys of a run's messages ({@code --keys} with {@code --key-count}): none, round-robin
 * over N keys, uniform over N, or Zipf with exponent S over N (key {@code k0} the most frequent).
 * Each producer stream draws its messages' keys from a generator seeded from the run's seed, so the
 * same seed repeats the same keys.
 *
 * <p>A key is an index from 0 to {@code count - 1}; {@link #keyBytes} are their names ("k0",
 * "k1", ...) built once, so a driver maps an index to bytes without allocating per message.
 */
public final class RecordKeys {

    public static final int DEFAULT_COUNT = 1000;
    public static final RecordKeys NONE = new RecordKeys(Kind.NONE, 0, 0, null);

    private static final String ZIPF = "zipf:";

    private enum Kind { NONE, ROUND_ROBIN, RANDOM, ZIPF }

    private final Kind kind;
    private final int count;
    private final double exponent;
    /** Zipf's cumulative probabilities by rank, the last being 1; null for the other kinds. */
    private final double[] cumulative;

    private RecordKeys(Kind kind, int count, double exponent, double[] cumulative) {
        this.kind = kind;
        this.count = count;
        this.exponent = exponent;
        this.cumulative = cumulative;
    }

    /**
     * @param text  none, round-robin, random or zipf:S (S above 0)
     * @param count keys to draw from, at least 1; ignored with none
     * @throws IllegalArgumentException naming the rule and the value
     */
    public static RecordKeys parse(String text, int count) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        if (value.equals("none")) {
            return NONE;
        }
        if (count < 1) {
            throw new IllegalArgumentException("a key count is at least 1, got " + count);
        }
        switch (value) {
            case "round-robin":
                return new RecordKeys(Kind.ROUND_ROBIN, count, 0, null);
            case "random":
                return new RecordKeys(Kind.RANDOM, count, 0, null);
            default:
                break;
        }
        if (!value.startsWith(ZIPF)) {
            throw new IllegalArgumentException("keys are none, round-robin, random or zipf:S (e.g. zipf:1.1), got '"
                    + text.trim() + "'");
        }
        double s;
        try {
            s = Double.parseDouble(value.substring(ZIPF.length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("zipf:S needs a number S above 0 (e.g. zipf:1.1), got '" + text.trim() + "'");
        }
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("zipf:S needs a number S above 0 (e.g. zipf:1.1), got '" + text.trim() + "'");
        }
        return new RecordKeys(Kind.ZIPF, count, s, zipfCumulative(count, s));
    }

    private static double[] zipfCumulative(int count, double s) {
        double[] cdf = new double[count];
        double sum = 0;
        for (int k = 0; k < count; k++) {
            sum += Math.pow(k + 1, -s);
            cdf[k] = sum;
        }
        for (int k = 0; k < count; k++) {
            cdf[k] /= sum;
        }
        // no draw may fall beyond the last key through rounding
        cdf[count - 1] = 1.0;
        return cdf;
    }

    public boolean isNone() {
        return kind == Kind.NONE;
    }

    /** Keys drawn from; 0 with none. */
    public int count() {
        return count;
    }

    /** As written back by the suite: none, round-robin, random, zipf:1.1. */
    public String spec() {
        return switch (kind) {
            case NONE -> "none";
            case ROUND_ROBIN -> "round-robin";
            case RANDOM -> "random";
            case ZIPF -> ZIPF + (exponent == Math.rint(exponent) && exponent < 1e15
                    ? Long.toString((long) exponent) : Double.toString(exponent));
        };
    }

    /** The name of key {@code index}: "k" and the index. */
    public static String name(int index) {
        return "k" + index;
    }

    /** Every key's name as bytes (US-ASCII), by index: built once per driver, shared by its publishers. */
    public byte[][] keyBytes() {
        byte[][] keys = new byte[count][];
        for (int k = 0; k < count; k++) {
            keys[k] = name(k).getBytes(StandardCharsets.US_ASCII);
        }
        return keys;
    }

    /** The probability of key {@code index} (not of a run's draws). */
    public double probability(int index) {
        return switch (kind) {
            case NONE -> 0;
            case ROUND_ROBIN, RANDOM -> 1.0 / count;
            case ZIPF -> cumulative[index] - (index == 0 ? 0 : cumulative[index - 1]);
        };
    }

    @Override
    public String toString() {
        return isNone() ? spec() : spec() + " over " + count;
    }

    /** One stream's draws; null with none. Not thread-safe. */
    public Chooser chooser(long seed) {
        return isNone() ? null : new Chooser(new SplittableRandom(seed));
    }

    /** The keys of one producer stream's messages, in order: no allocation per draw. */
    public final class Chooser {

        private final SplittableRandom random;
        private int next;

        private Chooser(SplittableRandom random) {
            this.random = random;
        }

        /** The next message's key, from 0 to {@link #count()} - 1. */
        public int next() {
            switch (kind) {
                case ROUND_ROBIN: {
                    int key = next;
                    next = next + 1 == count ? 0 : next + 1;
                    return key;
                }
                case RANDOM:
                    return random.nextInt(count);
                default:
                    return firstAbove(random.nextDouble());
            }
        }

        /** The first rank whose cumulative probability is above {@code u}: binary search. */
        private int firstAbove(double u) {
            int low = 0;
            int high = count - 1;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (cumulative[mid] > u) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return low;
        }
    }
}
