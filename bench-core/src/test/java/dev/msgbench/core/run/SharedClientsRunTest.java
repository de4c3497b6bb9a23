package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.loopback.LoopbackSystem;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SubscriptionCounts;
import dev.msgbench.core.testing.ForwardingSystem;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.testing.TakesSeconds;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.time.RateSchedule;

/**
 * Producer streams sharing threads and consumers sharing connections, through the loopback system,
 * whose every delivery is exact: each stream still counted on its own, nothing lost, copied or
 * reordered, and the system told how the clients share.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedClientsRunTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<String> publishingThreads = Collections.synchronizedList(new ArrayList<>());
    private RunPlan prepared;

    /** The loopback system, noting the plan it was given and the thread each stream's messages come from. */
    private final ForwardingSystem system = new ForwardingSystem(new LoopbackSystem()) {
        @Override
        public void prepare(RunPlan plan) throws Exception {
            prepared = plan;
            super.prepare(plan);
        }

        @Override
        public Publisher publisher(int streamId, AckListener acks) throws Exception {
            Publisher publisher = super.publisher(streamId, acks);
            return new Publisher() {
                private boolean noted;

                @Override
                public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
                    if (!noted) {
                        noted = true;
                        publishingThreads.add(streamId + ":" + Thread.currentThread().getName());
                    }
                    publisher.publish(message, sequence, intendedSendNanos);
                }

                @Override
                public void close() throws Exception {
                    publisher.close();
                }
            };
        }
    };

    private RunSpec config(Pacing pacing, int producers, int consumersPerSubscription, ClientSharing sharing) {
        return new RunSpec("e2e", "loopback", pacing, 100, producers, consumersPerSubscription, 42,
                Duration.ofSeconds(5), Duration.ofSeconds(5), dir, false, Map.of("local", true)).withSharing(sharing);
    }

    private LoadRun loadRun(RunSpec config, Destinations spread) {
        return new LoadRun(config.withDestinations(spread), system, NanoClock.system(),
                new PrintStream(out, true, StandardCharsets.UTF_8), null, false);
    }

    @Test
    @TakesSeconds
    void twelveStreamsOnThreeThreadsAndConsumersOnSharedConnectionsLoseCopyAndReorderNothing() throws Exception {
        Pacing pacing = new Pacing.FixedRate(2_400, Arrival.UNIFORM, Duration.ofMillis(200), Duration.ofMillis(800));
        RunResult r = loadRun(config(pacing, 12, 2, new ClientSharing(3, 8)), new Destinations(6, 2)).execute();

        Counts c = r.counts();
        assertEquals(2_400, c.sent(), "every stream kept its schedule: 200 messages each");
        assertEquals(2L * 2_400, c.deliveriesExpected());
        assertEquals(2L * 2_400, c.received());
        assertEquals(0, c.lost());
        assertEquals(0, c.duplicated());
        assertEquals(0, c.reordered());
        assertEquals(0, c.foreign());
        assertEquals(0, c.unsent());
        for (SubscriptionCounts s : c.subscriptions()) {
            assertEquals(400, s.received(), "topic " + s.topic() + " subscription " + s.subscription());
        }
        assertEquals(new RunPlan(prepared.runId(), 100, 12, 24, 6, 2, 3, 8), prepared,
                "the system is told: 3 producer connections, 8 consumer connections");
        List<String> threads = new ArrayList<>(publishingThreads);
        Collections.sort(threads);
        for (String entry : threads) {
            int stream = Integer.parseInt(entry.substring(0, entry.indexOf(':')));
            assertEquals("msgbench-producer-" + stream % 3, entry.substring(entry.indexOf(':') + 1),
                    "stream s is sent from thread s mod 3");
        }
        assertEquals(12, threads.size());
    }

    /**
     * On the fake clock, four streams on one thread: an automatic warm-up decided during the run moves
     * every stream's window, and each stream's messages are measured by its own intended times.
     */
    @Test
    void anAutomaticWarmUpAndARateScheduleWorkPerStreamOnASharedThread() throws Exception {
        ManualClock clock = new ManualClock(0);
        InMemorySystem memory = new InMemorySystem(clock);
        RunSpec auto = new RunSpec("e2e", "in-memory", Pacing.FixedRate.withAutoWarmup(1_000, Arrival.UNIFORM,
                Duration.ofSeconds(60), Duration.ofSeconds(5)), 100, 4, 1, 42, Duration.ofSeconds(10),
                Duration.ofSeconds(5), dir.resolve("auto"), false, Map.of("local", true)).withSharing(new ClientSharing(1, 0));
        RunResult r = FakeClockRuns.loadRun(auto, memory, clock, new PrintStream(out, true, StandardCharsets.UTF_8))
                .execute();

        assertEquals(Boolean.TRUE, r.workload().warmupSettled());
        assertEquals(11.0, r.workload().warmupSeconds());
        assertEquals(16_000, r.counts().sent());
        assertEquals(5_000, r.counts().measuredSent());
        assertEquals(5_000, r.latenciesMs().latency().get("count"));
        assertEquals(0, r.counts().lost());

        ManualClock scheduleClock = new ManualClock(0);
        RateSchedule rates = RateSchedule.parse("1000/s for 2s, 3000/s for 1s");
        RunSpec scheduled = new RunSpec("e2e", "in-memory", Pacing.FixedRate.scheduled(rates, Arrival.UNIFORM,
                Duration.ofSeconds(1)), 100, 4, 1, 42, Duration.ofSeconds(10), Duration.ofSeconds(5), dir.resolve("schedule"), false,
                Map.of("local", true)).withSharing(new ClientSharing(1, 0));
        RunResult s = FakeClockRuns.loadRun(scheduled, new InMemorySystem(scheduleClock), scheduleClock,
                new PrintStream(out, true, StandardCharsets.UTF_8)).execute();

        assertEquals(1_000 + 5_000, s.counts().sent(), "a warm-up second at the first rate, then the schedule");
        assertEquals(5_000, s.counts().measuredSent(), "2 s at 1,000/s and 1 s at 3,000/s, over four streams");
        assertEquals(0, s.counts().unsent());
        assertEquals(0, s.counts().lost());
    }

    /** The backlog gate counts what the streams of a shared thread sent together, and every stream drains whole. */
    @Test
    void aBacklogBuiltByStreamsSharingAThreadHoldsTheConsumersBackAndDrainsWhole() throws Exception {
        ManualClock clock = new ManualClock(0);
        RunSpec config = RunSpecs.withProducers(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), 4)
                .withSharing(new ClientSharing(1, 0));
        RunResult r = FakeClockRuns.loadRun(config, new InMemorySystem(clock).retaining(), clock,
                new PrintStream(out, true, StandardCharsets.UTF_8), Backlog.parse("500")).execute();

        assertEquals(1_000, r.counts().sent());
        assertEquals(1_000, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertTrue(r.backlog().reached(), r.backlog().toString());
        assertTrue(r.backlog().drained(), r.backlog().toString());
    }

    /** OMB's million topics would list a million subscriptions: beyond 10,000 only those with something to say. */
    @Test
    @TakesSeconds
    void beyondTenThousandSubscriptionsTheResultListsOnlyThoseThatLostCopiedOrReordered() throws Exception {
        int topics = ResultBuilder.LISTED_SUBSCRIPTIONS + 1;
        Pacing pacing = new Pacing.FixedRate(2.0 * topics, Arrival.UNIFORM, Duration.ZERO, Duration.ofSeconds(1));
        RunResult r = loadRun(config(pacing, topics, 1, new ClientSharing(4, 4)), new Destinations(topics, 1)).execute();

        assertEquals(2L * topics, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(List.of(), r.counts().subscriptions(), "every subscription received all it should");
    }

    @Test
    void aRunWithoutAScheduleRefusesStreamsSharingThreads() {
        Pacing unpaced = new Pacing.Unpaced(1_000, 0, Duration.ofSeconds(10), false);
        UserError e = assertThrows(UserError.class,
                () -> loadRun(config(unpaced, 4, 1, new ClientSharing(2, 0)), Destinations.ONE).execute());

        assertEquals("producer-threads 2: producer streams share threads only on a schedule (e2e); give "
                + "producer-threads 4 or omit it", e.getMessage());
        assertEquals(null, prepared, "refused before the system was prepared");
    }

    @Test
    void aMillionSlowStreamsCostAFewHundredBytesEachWhereOneFastStreamKeepsItsWideWindow() {
        ClientMemory slow = new ClientMemory(4_000_000, 4_000_000, 1, 0.125, 1_000, 1024);
        ClientMemory fast = new ClientMemory(1, 1, 1, 1_000_000, 1, 1024);

        assertTrue(slow.bytesPerStream() < 1_000, "per stream: " + slow.bytesPerStream());
        assertTrue(fast.bytesPerStream() > 128 * 1024, "per stream: " + fast.bytesPerStream());
        assertFalse(fast.worthSaying());
        assertTrue(slow.worthSaying());
        assertTrue(slow.fits(8L << 30));
        assertFalse(slow.fits(2L << 30));
        assertTrue(fast.fits(128L << 20), "a run of a few clients fits a small heap (tune's -Xmx128m)");
    }

    @Test
    void aRunWhoseClientsCannotFitInTheHeapIsRefusedOnOneLine() {
        ClientMemory memory = new ClientMemory(4_000_000, 4_000_000, 1, 0.125, 1_000, 1024);

        UserError e = assertThrows(UserError.class, () -> ClientMemory.refuseBeyondHeap(memory, 1L << 30));

        assertEquals("4,000,000 producer streams and 4,000,000 consumers need about " + ClientMemory.human(memory.bytes())
                + " of heap besides 256 MiB for the run, and this JVM's max heap is 1.0 GiB; give the JVM more "
                + "(java -Xmx...) or run fewer topics, producers or consumers", e.getMessage());
    }
}
