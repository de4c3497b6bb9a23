package dev.msgbench.cli;

import java.time.Duration;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.time.Arrival;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The load of a run: how many messages, how large, how spread out, for how long. */
final class LoadOptions {

    static final int MAX_SIZE_BYTES = 64 << 20;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--rate", paramLabel = "MSGS_PER_SEC", defaultValue = "1000",
            description = "Target rate of all producers together, messages per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1KiB", converter = Converters.Size.class,
            description = "Message size including the " + PayloadHeader.BYTES + "-byte header: 256B, 1KiB, 1MiB, 5KB "
                    + "(default: ${DEFAULT-VALUE}). The rest is random bytes, so compression gains nothing.")
    long sizeBytes;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "10s", converter = Converters.Time.class,
            description = "Measured time after the warm-up: 30s, 2m, 1h (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "2s", converter = Converters.Time.class,
            description = "Warm-up before the measured time; sent on the same schedule, left out of the results (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--arrival", paramLabel = "PROCESS", defaultValue = "uniform",
            description = "Spacing of intended send times: uniform (fixed rate) or poisson (default: ${DEFAULT-VALUE}).")
    Arrival arrival;

    @Option(names = "--producers", paramLabel = "N", defaultValue = "1",
            description = "Producer streams, each with its own connection, sharing the rate (default: ${DEFAULT-VALUE}).")
    int producers;

    @Option(names = "--consumers", paramLabel = "N", defaultValue = "1",
            description = "Consumers (default: ${DEFAULT-VALUE}).")
    int consumers;

    @Option(names = "--connections", paramLabel = "N",
            description = "Spread the rate over N connections: N producer streams and N consumers, each on a "
                    + "connection of its own (E3 runs 20,000 msg/s over 25). Sets --producers and --consumers.")
    Integer connections;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of payloads and Poisson arrivals; the same seed repeats a run exactly (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--drain-timeout", paramLabel = "TIME", defaultValue = "10s", converter = Converters.Time.class,
            description = "After the last send, how long to wait for outstanding messages before counting them lost (default: ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    void validate() {
        if (connections != null) {
            if (connections < 1) {
                throw error("--connections must be at least 1, got " + connections);
            }
            if (spec.commandLine().getParseResult().hasMatchedOption("--producers")
                    || spec.commandLine().getParseResult().hasMatchedOption("--consumers")) {
                throw error("--connections sets --producers and --consumers; give either, not both");
            }
            producers = connections;
            consumers = connections;
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw error("--rate must be a positive number of messages per second, got " + fmt(rate));
        }
        if (sizeBytes < PayloadHeader.BYTES) {
            throw error("--size must be at least " + PayloadHeader.BYTES + " B (the message header), got " + sizeBytes + " B");
        }
        if (sizeBytes > MAX_SIZE_BYTES) {
            throw error("--size must be at most 64MiB, got " + sizeBytes + " B");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw error("--duration must be longer than 0, got " + duration.toMillis() + " ms");
        }
        if (producers < 1) {
            throw error("--producers must be at least 1, got " + producers);
        }
        if (consumers < 1) {
            throw error("--consumers must be at least 1, got " + consumers);
        }
        if (rate * (duration.toNanos() + warmup.toNanos()) / 1e9 < producers) {
            throw error("--rate " + fmt(rate) + " for " + duration.toMillis() + " ms gives each of the " + producers
                    + " producers less than one message; raise --rate or --duration");
        }
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
