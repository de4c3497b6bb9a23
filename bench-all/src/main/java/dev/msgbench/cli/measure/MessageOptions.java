package dev.msgbench.cli.measure;

import java.time.Duration;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.Limits;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** What every run sends, whatever its pacing: message size, clients, seed. */
public final class MessageOptions {

    public static final int MAX_SIZE_BYTES = 64 << 20;
    private static final Duration MAX_SPIN_WINDOW = Duration.ofSeconds(1);

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--size", paramLabel = "SIZE|uniform:MIN-MAX|weights:SIZE=W,...", defaultValue = "1KiB",
            converter = Converters.SizeDistribution.class,
            description = {"Message size including the " + PayloadHeader.BYTES + "-byte header: 256B, 1KiB, 1MiB, 5KB "
                    + "(default: ${DEFAULT-VALUE}). The rest is random bytes, so compression gains nothing (see --payload).",
                    "Sizes from a distribution, each message's drawn with --seed: uniform:100B-10KiB (every size in "
                    + "the range equally likely), or 'weights:100B=80,1KiB=15,64KiB=5' (relative weights). The "
                    + "smallest holds the header; broker limits are checked against the largest."})
    public MessageSizes sizes;

    @Option(names = "--payload", paramLabel = "random|compressible:R|file:PATH[,PATH...]", defaultValue = "random",
            converter = Converters.Payload.class,
            description = {"What each message holds after the header (default: ${DEFAULT-VALUE}: random bytes, the "
                    + "method's rule, so no compressor can flatter a system). The others are labelled experiments, "
                    + "said so in result.json and the summary:",
                    "compressible:R: a share R (0 to 1) of each body random, the rest zeros, as OpenMessaging "
                    + "Benchmark's randomBytesRatio (compressible:0.1 is 10%% random).",
                    "file:PATH[,PATH...]: each message is a file's bytes, the files in turn, as OpenMessaging "
                    + "Benchmark's payloadFile; the header replaces the first " + PayloadHeader.BYTES + " bytes and the "
                    + "message size is the file's, so --size is refused beside it."})
    public PayloadContent payload;

    /** The largest message of the run (--size's largest), set by {@link #validate}. */
    public long sizeBytes;

    @Option(names = "--producers", paramLabel = "N", defaultValue = "1",
            description = "Producer streams, each with its own schedule, sequence numbers and counts, and a thread and "
                    + "connection of its own up to 1,000 (see --producer-threads) (default: ${DEFAULT-VALUE}).")
    public int producers;

    @Option(names = "--consumers", paramLabel = "N", defaultValue = "1",
            description = "Consumers, each with its own connection up to 1,000 in all (see --consumer-connections) "
                    + "(default: ${DEFAULT-VALUE}).")
    public int consumers;

    @Mixin
    public DestinationOptions destinations;

    @Mixin
    public SharingOptions sharing;

    @Mixin
    public BacklogOptions backlog;

    @Mixin
    public KeyOptions keys;

    @Option(names = "--connections", paramLabel = "N",
            description = "Spread the load over N connections: N producer streams and N consumers, each on a "
                    + "connection of its own (E3 runs 20,000 msg/s over 25). Sets --producers and --consumers.")
    Integer connections;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of payloads and Poisson arrivals; the same seed repeats a run exactly (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--drain-timeout", paramLabel = "TIME", defaultValue = "10s", converter = TimeConverter.class,
            description = "After the last send, how long to wait for outstanding messages (the clients' flush included) before "
                    + "counting them lost; a send still blocked this long after the schedule ended is given up, as a failed "
                    + "send, and ends the run (default: ${DEFAULT-VALUE}).")
    public Duration drainTimeout;

    @Option(names = "--spin-window", paramLabel = "TIME|auto", defaultValue = "auto", converter = Converters.SpinWindow.class,
            description = {"How long before each intended send time a producer stops sleeping and spins, yielding the "
                    + "core. A sleeping thread wakes as late as the kernel runs it (the hiccup line shows how late); a "
                    + "window longer than the gap between sends keeps the schedule to the microsecond but holds a core "
                    + "per producer.",
                    "auto (the default): producers spin the last 80us only on cores the broker does not use (the broker "
                    + "and this JVM pinned apart, a broker on another machine, none at all); sharing cores with a local "
                    + "broker they sleep until each send (0), so they never take a core the broker needs. result.json "
                    + "and the summary say what was chosen and why."})
    public SpinWindowOption spinWindow;

    /** @param minConsumers 1 where latency needs a receiver, 0 where a producer-only run makes sense */
    void validate(int minConsumers) {
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
        if (payload instanceof PayloadContent.FromFiles files) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--size")) {
                throw error("--payload " + payload.spec() + " sends each file as it is, of its own size; give either "
                        + "--size or --payload file:, not both");
            }
            sizes = files.sizes();
        }
        String given = sizes.isFixed() ? "" : " in " + sizes.spec();
        if (sizes.minBytes() < PayloadHeader.BYTES) {
            throw error("--size must be at least " + PayloadHeader.BYTES + " B (the message header), got "
                    + sizes.minBytes() + " B" + given);
        }
        if (sizes.maxBytes() > MAX_SIZE_BYTES) {
            throw error("--size must be at most 64MiB, got " + sizes.maxBytes() + " B" + given);
        }
        sizeBytes = sizes.maxBytes();
        if (producers < 1) {
            throw error("--producers must be at least 1, got " + producers);
        }
        if (consumers < minConsumers) {
            throw error("--consumers must be at least " + minConsumers + ", got " + consumers);
        }
        if (connections != null) {
            Limits.requireClientsAtMost(spec, "--connections", connections);
        }
        Limits.requireLogicalClientsAtMost(spec, "--producers", producers);
        Limits.requireLogicalClientsAtMost(spec, "--consumers", consumers);
        destinations.validate(producers, consumers);
        sharing.validate(producers, consumers * destinations.topics * destinations.subscriptionsPerTopic,
                Math.max(1, consumers * destinations.subscriptionsPerTopic));
        backlog.validate(consumers);
        keys.validate();
        Limits.requireTimeAtMost(spec, "--drain-timeout", drainTimeout, Limits.MAX_TIME);
        if (spinWindow.given() != null) {
            // a window longer than the gap between sends already spins all the time
            Limits.requireTimeAtMost(spec, "--spin-window", spinWindow.given(), MAX_SPIN_WINDOW);
        }
    }

    ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
