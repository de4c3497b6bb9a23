package dev.msgbench.cli.tune;

import java.util.Arrays;
import java.util.List;

import dev.msgbench.core.UserError;

/**
 * A named set of JVM flags for the load generator, and the JDK versions it exists on: a flag a
 * JVM does not know stops it at start, so sets are skipped (with a note) where they do not apply.
 *
 * @param minFeature the lowest JDK feature version that has every flag of the set
 */
public record FlagSet(String name, List<String> flags, int minFeature, String note) {

    /** Heap of the fixed-heap set: far above what a run needs, small beside the machine's memory. */
    static final String FIXED_HEAP = "1g";

    /** The defaults: the collectors worth comparing for latency, and the settings that remove heap resizing. */
    public static List<FlagSet> defaults() {
        return List.of(
                new FlagSet("G1", List.of("-XX:+UseG1GC"), 0, "the default collector"),
                new FlagSet("Parallel", List.of("-XX:+UseParallelGC"), 0, "throughput collector: longer, rarer pauses"),
                new FlagSet("ZGC-gen", List.of("-XX:+UseZGC", "-XX:+ZGenerational"), 21,
                        "generational ZGC exists from JDK 21 (its only mode from 24)"),
                new FlagSet("G1-fixed-heap", List.of("-XX:+UseG1GC", "-Xms" + FIXED_HEAP, "-Xmx" + FIXED_HEAP,
                        "-XX:+AlwaysPreTouch"), 0, "no heap resizing, pages touched at start"),
                new FlagSet("G1-compact-headers", List.of("-XX:+UseG1GC", "-XX:+UseCompactObjectHeaders"), 25,
                        "compact object headers are a product flag from JDK 25 (JEP 519)"));
    }

    /**
     * A set from the command line: {@code NAME=FLAG FLAG ...}, for every JDK.
     *
     * @throws UserError naming --flags when the form is wrong
     */
    public static FlagSet parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0) {
            throw new UserError("--flags " + spec + ": expected NAME=FLAGS, e.g. --flags 'small-heap=-Xmx256m -XX:+UseG1GC'");
        }
        List<String> flags = Arrays.stream(spec.substring(eq + 1).trim().split("\\s+")).filter(f -> !f.isEmpty()).toList();
        for (String flag : flags) {
            if (!flag.startsWith("-")) {
                throw new UserError("--flags " + spec + ": " + flag + " is not a JVM flag (flags start with -)");
            }
        }
        return new FlagSet(spec.substring(0, eq).trim(), flags, 0, "given");
    }

    /**
     * The flags as given to this JDK. From JDK 24 on generational is ZGC's only mode and
     * -XX:+ZGenerational only draws a warning, so it is left out there.
     */
    public List<String> flagsFor(Jdk jdk) {
        if (jdk.feature() < 24) {
            return flags;
        }
        return flags.stream().filter(f -> !f.equals("-XX:+ZGenerational")).toList();
    }

    public boolean appliesTo(Jdk jdk) {
        return jdk.feature() >= minFeature;
    }
}
