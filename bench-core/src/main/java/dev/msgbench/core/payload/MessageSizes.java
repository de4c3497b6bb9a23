package dev.msgbench.core.payload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.msgbench.core.units.Sizes;

/**
 * The sizes of a run's messages ({@code --size}), header included: one size, sizes uniform over
 * a range ({@code uniform:100B-10KiB}), or sizes with weights ({@code weights:100B=80,1KiB=20}).
 * Each producer stream draws its messages' sizes from a generator seeded from the run's seed, so
 * the same seed repeats the same sizes.
 */
public final class MessageSizes {

    private static final String UNIFORM = "uniform:";
    private static final String WEIGHTS = "weights:";

    /** The sizes a stream may draw, smallest first; for uniform, the range's two ends. */
    private final int[] sizes;
    /** Cumulative weights, the last being the total; null for one size or a uniform range. */
    private final double[] cumulativeWeights;
    private final boolean uniform;
    private final String spec;

    private MessageSizes(int[] sizes, double[] cumulativeWeights, boolean uniform, String spec) {
        this.sizes = sizes;
        this.cumulativeWeights = cumulativeWeights;
        this.uniform = uniform;
        this.spec = spec;
    }

    public static MessageSizes fixed(int sizeBytes) {
        return new MessageSizes(new int[] {sizeBytes}, null, false, Sizes.format(sizeBytes));
    }

    /**
     * @throws IllegalArgumentException naming the rule and the value; sizes are not checked
     *                                  against the header or any maximum here (the caller knows the limits)
     */
    public static MessageSizes parse(String text) {
        String value = text.trim();
        if (value.startsWith(UNIFORM)) {
            String range = value.substring(UNIFORM.length());
            int dash = range.indexOf('-');
            if (dash < 0) {
                throw new IllegalArgumentException("a uniform size is 'uniform:MIN-MAX' (e.g. uniform:100B-10KiB), got '"
                        + text + "'");
            }
            int min = bytes(range.substring(0, dash));
            int max = bytes(range.substring(dash + 1));
            if (min > max) {
                throw new IllegalArgumentException("uniform:MIN-MAX needs MIN <= MAX, got '" + text + "'");
            }
            return new MessageSizes(new int[] {min, max}, null, true,
                    UNIFORM + Sizes.format(min) + "-" + Sizes.format(max));
        }
        if (value.startsWith(WEIGHTS)) {
            return weights(text, value.substring(WEIGHTS.length()));
        }
        return fixed(bytes(value));
    }

    private static MessageSizes weights(String text, String list) {
        List<Integer> sizes = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (String item : list.split(",")) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("weights are 'weights:SIZE=WEIGHT,...' (e.g. weights:100B=80,1KiB=20), "
                        + "got '" + item.trim() + "' in '" + text + "'");
            }
            int size = bytes(item.substring(0, eq));
            double weight;
            try {
                weight = Double.parseDouble(item.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a weight is a number, got '" + item.trim() + "' in '" + text + "'");
            }
            if (!(weight > 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("a weight must be above 0, got '" + item.trim() + "' in '" + text + "'");
            }
            if (sizes.contains(size)) {
                throw new IllegalArgumentException("each size once, got " + Sizes.format(size) + " twice in '" + text + "'");
            }
            sizes.add(size);
            weights.add(weight);
        }
        // smallest first, so that the table and the cumulative weights read in order
        Integer[] order = new Integer[sizes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(sizes.get(a), sizes.get(b)));
        int[] sorted = new int[order.length];
        double[] cumulative = new double[order.length];
        StringBuilder spec = new StringBuilder(WEIGHTS);
        double sum = 0;
        for (int i = 0; i < order.length; i++) {
            sorted[i] = sizes.get(order[i]);
            sum += weights.get(order[i]);
            cumulative[i] = sum;
            spec.append(i == 0 ? "" : ",").append(Sizes.format(sorted[i])).append('=').append(number(weights.get(order[i])));
        }
        return new MessageSizes(sorted, cumulative, false, spec.toString());
    }

    private static int bytes(String text) {
        long bytes = Sizes.parseBytes(text.trim());
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text.trim() + "' is larger than a message can be");
        }
        return (int) bytes;
    }

    private static String number(double v) {
        return v == Math.rint(v) && v < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    public boolean isFixed() {
        return sizes.length == 1;
    }

    public int minBytes() {
        return sizes[0];
    }

    /** The largest message the run may send: what drivers check against the system's limits. */
    public int maxBytes() {
        return sizes[sizes.length - 1];
    }

    /** The mean of the distribution (not of a run's draws). */
    public double meanBytes() {
        if (uniform) {
            return (sizes[0] + (double) sizes[1]) / 2;
        }
        if (isFixed()) {
            return sizes[0];
        }
        double sum = 0;
        double previous = 0;
        for (int i = 0; i < sizes.length; i++) {
            sum += sizes[i] * (cumulativeWeights[i] - previous);
            previous = cumulativeWeights[i];
        }
        return sum / previous;
    }

    /** How many different sizes a stream may draw. */
    public long distinctSizes() {
        return uniform ? (long) sizes[1] - sizes[0] + 1 : sizes.length;
    }

    /** As written back by the suite: {@code 1KiB}, {@code uniform:100B-10KiB}, {@code weights:100B=80,1KiB=20}. */
    public String spec() {
        return spec;
    }

    @Override
    public String toString() {
        return spec;
    }

    /** One stream's draws. Not thread-safe. */
    public Sampler sampler(long seed) {
        return new Sampler(new SplittableRandom(seed));
    }

    /** The sizes of one producer stream's messages, in order. */
    public final class Sampler {

        private final SplittableRandom random;

        private Sampler(SplittableRandom random) {
            this.random = random;
        }

        public int next() {
            if (isFixed()) {
                return sizes[0];
            }
            if (uniform) {
                return sizes[0] + random.nextInt(sizes[1] - sizes[0] + 1);
            }
            double u = random.nextDouble() * cumulativeWeights[cumulativeWeights.length - 1];
            int i = 0;
            while (i < sizes.length - 1 && u >= cumulativeWeights[i]) {
                i++;
            }
            return sizes[i];
        }
    }
}
