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
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;

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

    private RunConfig config(Pacing pacing, int producers, int consumersPerSubscription, ClientSharing sharing) {
        return new RunConfig("e2e", "loopback", pacing, 100, producers, consumersPerSubscription, 42,
                Duration.ofSeconds(5), Duration.ofSeconds(5), dir, false, Map.of("local", true)).withSharing(sharing);
    }

    private LoadRun loadRun(RunConfig config, Destinations spread) {
        return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8), null,
                false).withDestinations(spread);
    }

    @Test
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

    /** OMB's million topics would list a million subscriptions: beyond 10,000 only those with something to say. */
    @Test
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

        assertEquals("--producer-threads 2: producer streams share threads only on a schedule (e2e); give "
                + "--producer-threads 4 or omit it", e.getMessage());
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
