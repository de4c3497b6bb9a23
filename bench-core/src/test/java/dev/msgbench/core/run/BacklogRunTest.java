package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.result.BacklogFigures;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.NanoClock;

/** Backlog and drain (--backlog): consumers held back until the producers built it, then released. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BacklogRunTest {

    private static final long MILLI = 1_000_000L;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);

    @Test
    void consumersReleasedWhileTheNodeIsDownSubscribeOnceItServesAgain() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).retaining();
        RunSpec spec = RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(3)).withFaults(new FaultPlan(
                List.of(FaultSpec.parse("kill@200ms:restart-after=1s")), FaultPlan.DEFAULT_TIMEOUT));
        RunResult r = FakeClockRuns.loadRun(spec.withBacklog(Backlog.parse("500")), system, system, clock,
                new PrintStream(out, true, StandardCharsets.UTF_8)).execute();

        List<String> events = system.eventsSnapshot();
        assertTrue(events.indexOf("restart 1") >= 0 && events.indexOf("restart 1") < events.indexOf("subscribe 0"),
                "reached at 0.5 s, the node down from 0.2 s to 1.2 s: " + events);
        assertEquals(3_000, r.counts().received(), "the kill held the messages until the restart; none lost");
        assertTrue(r.backlog().readyAtSeconds() >= 1.2, r.backlog().toString());
    }

    @Test
    void consumersSubscribeOnlyOnceTheBacklogWasSentAndThenReceiveEveryMessage() throws Exception {
        AtomicBoolean subscribedEarly = new AtomicBoolean();
        InMemorySystem system = new InMemorySystem(clock).retaining();
        system.whilePublishing(499, () -> subscribedEarly.set(system.eventsSnapshot().contains("subscribe 0")));
        RunResult r = FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system, clock,
                new PrintStream(out, true, StandardCharsets.UTF_8), Backlog.parse("500")).execute();

        assertFalse(subscribedEarly.get(), system.eventsSnapshot().toString());
        assertEquals(1_000, r.counts().sent());
        assertEquals(1_000, r.counts().received());
        assertEquals(0, r.counts().lost());
        BacklogFigures b = r.backlog();
        assertEquals("500 messages", b.backlog());
        assertTrue(b.reached());
        // message 500 (sequence 499) is due at 0.499 s; the gate looks every 5 ms
        assertTrue(b.reachedAtSeconds() >= 0.499 && b.reachedAtSeconds() <= 0.505, b.toString());
        assertTrue(b.deliveriesWaiting() >= 500 && b.deliveriesWaiting() <= 506, b.toString());
        assertTrue(b.drained(), b.toString());
        assertTrue(r.warnings().contains(BacklogFigures.LATENCY_NOTE), r.warnings().toString());
        String log = Files.readString(dir.resolve(IntervalLog.FILE_NAME));
        String counts = Files.readString(dir.resolve(IntervalLog.COUNTS_FILE_NAME));
        for (String text : List.of(log, counts)) {
            assertTrue(text.contains("#backlog reached: "), text);
            assertTrue(text.contains("#consumers released at "), text);
            assertTrue(text.contains("#consumers ready at "), text);
            assertTrue(text.contains("#backlog drained at "), text);
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("backlog 500 messages: reached at "), out.toString());
        assertEquals(b, ResultFiles.readResult(dir).backlog(), "result.json keeps the figures");
    }

    @Test
    void theDrainRateCountsEveryDeliveryFromTheReleaseUntilTheBacklogIsRead() throws Exception {
        Accounting accounting = new Accounting(1, 1, 1, true);
        NanoClock watcher = clock.watcher();
        List<String> released = new ArrayList<>();
        try (IntervalLog log = new IntervalLog(dir, 0, 0, 10)) {
            BacklogGate gate = new BacklogGate(Backlog.parse("100"), 100, accounting,
                    new RunWindow(0, 0, 10_000 * MILLI), log, now -> 1_000.0, watcher,
                    () -> released.add("at " + clock.nanoTime() / MILLI + " ms"),
                    new Receiver(clock, 1, accounting, new Recorders()));
            Thread thread = new Thread(gate);
            thread.start();
            for (int i = 0; i < 100; i++) {
                accounting.countSent(0);
                clock.advance(MILLI);
            }
            long received = 0;
            // from 100 ms: one message sent and three received each millisecond
            for (int k = 0; k < 40; k++) {
                accounting.countSent(0);
                for (int j = 0; j < 3; j++) {
                    accounting.receive(0, received++, 0);
                }
                clock.advance(MILLI);
            }
            gate.stop(thread);

            assertEquals(List.of("at 100 ms"), released);
            BacklogFigures b = gate.figures();
            assertEquals(0.100, b.reachedAtSeconds(), 1e-9);
            assertEquals(0.100, b.releasedAtSeconds(), 1e-9);
            assertEquals(0.100, b.readyAtSeconds(), 1e-9);
            assertEquals(100, b.deliveriesWaiting());
            // 102 received by 134 ms; the gate looks every 5 ms, and at 135 ms finds 105 received and 35 more sent
            assertEquals(0.135, b.drainedAtSeconds(), 1e-9);
            assertEquals(0.035, b.drainSeconds(), 1e-9);
            assertEquals(105 / 0.035, b.drainRateMsgsPerSec(), 1e-6);
            assertEquals(35 / 0.035, b.sendRateDuringDrainMsgsPerSec(), 1e-6);
            assertEquals(1_000.0, b.targetRateMsgsPerSec());
            assertTrue(b.scheduleKept());
            assertEquals("backlog 100 messages: reached at 0.100 s, consumers released at 0.100 s (100 deliveries "
                    + "waiting) and ready at 0.100 s, drained in 0.035 s at 3,000 msg/s; producers kept their schedule: 1,000 of 1,000 msg/s "
                    + "during the drain", SummaryTable.backlogLine(b));
        }
    }

    @Test
    void aBacklogIsRefusedForASystemThatKeepsNothing() {
        UserError e = assertThrows(UserError.class, () -> FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ZERO,
                Duration.ofSeconds(1)), new InMemorySystem(clock), clock, new PrintStream(out, true, StandardCharsets.UTF_8),
                Backlog.parse("1KiB")).execute());
        assertEquals("backlog: in-memory keeps nothing for consumers that are held back, so no backlog can build; "
                + "use a system that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams)", e.getMessage());
    }

    @Test
    void aSizeCountsTheMeanMessageSize() {
        assertEquals(new Backlog(0, 1L << 30), Backlog.parse("1GiB"));
        assertEquals(10_486, Backlog.parse("1MiB").messagesToSend(MessageSizes.fixed(100)));
        assertEquals("1GiB", Backlog.parse("1GiB").describe());
        assertEquals(new Backlog(250, 0), Backlog.parse("1000").scaled(0.25), "one of four load generators' share");
        assertEquals("5243MiB", Backlog.parse("512GiB").scaled(0.01).flagText(), "whole MiB, to read as a size");
        assertEquals("1000", Backlog.parse("1000").flagText());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backlog.parse("0"));
        assertEquals("'0' is no backlog: give at least 1 message", e.getMessage());
    }
}
