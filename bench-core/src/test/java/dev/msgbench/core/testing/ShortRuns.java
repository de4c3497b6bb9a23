package dev.msgbench.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Assertions;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.MessageSizeFigures;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;

/** Short engine runs against a real system, for the adapter tests of every module. */
public final class ShortRuns {

    private ShortRuns() {
    }

    /** 300 ms of warm-up and 1 s measured at {@code rate}; closes the system afterwards. */
    public static RunResult run(MessagingSystem system, Path dir, double rate, int sizeBytes, int producers, int consumers)
            throws Exception {
        return run(system, dir, rate, sizeBytes, producers, consumers, Duration.ofMillis(300), Duration.ofSeconds(1));
    }

    /** As {@link #run(MessagingSystem, Path, double, int, int, int)} with the given warm-up and duration. */
    public static RunResult run(MessagingSystem system, Path dir, double rate, int sizeBytes, int producers, int consumers,
                                Duration warmup, Duration duration) throws Exception {
        try (system) {
            return runWithoutClosing(system, dir, rate, sizeBytes, producers, consumers, warmup, duration);
        }
    }

    /** A run after which the system stays open, for tests that look at it afterwards. */
    public static RunResult runWithoutClosing(MessagingSystem system, Path dir, double rate, int sizeBytes, int producers,
                                              int consumers, Duration warmup, Duration duration) throws Exception {
        RunSpec config = fixedRate(dir, rate, sizeBytes, producers, consumers, warmup, duration);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8),
                null, false).execute();
    }

    /**
     * 300 ms of warm-up and 1 s measured at {@code rate}, each message with a record key drawn from
     * {@code keys}; the system stays open, for tests that look at what its broker stored.
     */
    public static RunResult keyedWithoutClosing(MessagingSystem system, Path dir, double rate, int sizeBytes,
                                                int producers, int consumers, RecordKeys keys) throws Exception {
        RunSpec config = fixedRate(dir, rate, sizeBytes, producers, consumers, Duration.ofMillis(300),
                Duration.ofSeconds(1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return new LoadRun(config.withKeys(keys), system, NanoClock.system(),
                new PrintStream(out, true, StandardCharsets.UTF_8), null, false).execute();
    }

    /** No warm-up and {@code duration} at {@code rate}, the consumers held back until {@code backlog} was sent; closes the system. */
    public static RunResult withBacklog(MessagingSystem system, Path dir, double rate, int sizeBytes, Duration duration,
                                        Backlog backlog) throws Exception {
        RunSpec config = fixedRate(dir, rate, sizeBytes, 1, 1, Duration.ZERO, duration);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return new LoadRun(config.withBacklog(backlog), system, NanoClock.system(),
                    new PrintStream(out, true, StandardCharsets.UTF_8), null, false).execute();
        }
    }

    /**
     * 300 ms of warm-up and 1 s measured at {@code rate}, each message's size drawn from {@code
     * sizes} (as --size gives them, e.g. {@code uniform:32B-4KiB}); closes the system afterwards.
     */
    public static RunResult withSizes(MessagingSystem system, Path dir, double rate, String sizes, int producers,
                                      int consumers) throws Exception {
        MessageSizes drawn = MessageSizes.parse(sizes);
        RunSpec config = fixedRate(dir, rate, drawn.maxBytes(), producers, consumers, Duration.ofMillis(300),
                Duration.ofSeconds(1)).withSizes(drawn);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8),
                    null, false).execute();
        }
    }

    /**
     * 300 ms of warm-up and 1 s measured at {@code rate}, each message with a record key drawn from
     * {@code keys}, over {@code spread}'s topics and subscriptions; closes the system afterwards.
     */
    public static RunResult withKeys(MessagingSystem system, Path dir, double rate, int sizeBytes, RecordKeys keys,
                                     Destinations spread, int producers, int consumers) throws Exception {
        RunSpec config = fixedRate(dir, rate, sizeBytes, producers, consumers, Duration.ofMillis(300),
                Duration.ofSeconds(1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return new LoadRun(config.withKeys(keys).withDestinations(spread), system, NanoClock.system(),
                    new PrintStream(out, true, StandardCharsets.UTF_8), null, false).execute();
        }
    }

    /**
     * What a run over {@code subscriptions} subscriptions per topic with acknowledgements must show
     * (a keyed run's, say): every message acknowledged, received once by each subscription and in
     * order, none lost.
     */
    public static void assertEverySubscriptionGotEveryMessage(RunResult r, int subscriptions) {
        // the clients' versions tell which of a test's runs it was
        String run = r.versions() + " " + r.counts();
        Assertions.assertEquals(RunStatus.COMPLETE, r.status(), r.warnings() + " " + r.error() + " " + run);
        Assertions.assertEquals(subscriptions * r.counts().sent(), r.counts().received(), run);
        Assertions.assertEquals(r.counts().sent(), r.counts().acknowledged(), run);
        Assertions.assertEquals(0, r.counts().lost(), run);
        Assertions.assertEquals(0, r.counts().duplicated(), run);
        Assertions.assertEquals(0, r.counts().reordered(), run);
    }

    /**
     * What a run of {@link #withSizes} must show: every message received once, and as many bytes
     * received as sent, so no driver cut or padded a message to one length.
     */
    public static void assertEveryByteArrived(RunResult r) {
        MessageSizeFigures sizes = r.workload().messageSizes();
        Assertions.assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        Assertions.assertEquals(0, r.counts().lost() + r.counts().duplicated() + r.counts().foreign(), r.counts().toString());
        Assertions.assertEquals(r.counts().sent(), r.counts().received());
        Assertions.assertEquals(sizes.sentBytes(), sizes.receivedBytes());
        Assertions.assertTrue(sizes.minBytes() < sizes.maxBytes(), sizes.toString());
    }

    /**
     * As {@link #run(MessagingSystem, Path, double, int, int, int, Duration, Duration)} on a fake
     * clock, which the in-memory system's waits must be on too: seconds of schedule take
     * milliseconds, and every time in the results is exact.
     */
    public static RunResult onFakeClock(InMemorySystem system, ManualClock clock, Path dir, double rate, int sizeBytes,
                                        Duration warmup, Duration duration) throws Exception {
        RunSpec config = fixedRate(dir, rate, sizeBytes, 1, 1, warmup, duration);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return FakeClockRuns.loadRun(config, system, clock, new PrintStream(out, true, StandardCharsets.UTF_8)).execute();
        }
    }

    private static RunSpec fixedRate(Path dir, double rate, int sizeBytes, int producers, int consumers, Duration warmup,
                                       Duration duration) {
        return new RunSpec("e2e", "test", new Pacing.FixedRate(rate, Arrival.UNIFORM, warmup, duration), sizeBytes,
                producers, consumers, 7, Duration.ofSeconds(10), Duration.ofSeconds(10), dir, false, Map.of("local", true));
    }

    /** A throughput run: {@code messages} sent as fast as accepted, at most 10,000 unacknowledged per producer. */
    public static RunResult throughput(MessagingSystem system, Path dir, long messages, int sizeBytes, int producers,
                                       int consumers) throws Exception {
        RunSpec config = new RunSpec("throughput", "test",
                new Pacing.Unpaced(messages, 10_000, Duration.ofSeconds(30), false), sizeBytes,
                producers, consumers, 7, Duration.ofSeconds(10), Duration.ofSeconds(10), dir, false, Map.of("local", true));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8),
                    null, false).execute();
        }
    }
}
