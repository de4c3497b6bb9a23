package dev.msgbench.core.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunFailedException;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;

/** The echo pattern on the in-memory system and a fake clock, where every time is exact. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoSystemTest {

    private static final long OUTBOUND_NANOS = 1_000_000;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(0);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private RunResult run(EchoSystem echo) throws Exception {
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(1_000, Arrival.UNIFORM,
                Duration.ofMillis(200), Duration.ofSeconds(1)), 100, 1, 1, 42, Duration.ofMillis(300),
                Duration.ofSeconds(5), dir, false, Map.of("local", true));
        try (echo) {
            return FakeClockRuns.loadRun(config, echo, clock, new PrintStream(out, true, StandardCharsets.UTF_8)).execute();
        }
    }

    @Test
    void everyMessageComesBackOnceAndItsLatencyCountsFromTheOriginalIntendedSendTime() throws Exception {
        InMemorySystem outbound = new InMemorySystem(clock).answeringIn(OUTBOUND_NANOS);
        InMemorySystem back = new InMemorySystem(clock);

        RunResult r = run(EchoSystem.withResponder(outbound, back, Duration.ofSeconds(5)));

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(1_200, r.counts().sent());
        assertEquals(1_200, r.counts().received());
        assertEquals(0, r.counts().lost() + r.counts().duplicated() + r.counts().reordered() + r.counts().foreign());
        // the outbound leg took 1 ms after each intended send time, and the echo added nothing: exactly 1 ms
        assertEquals(1.0, r.latenciesMs().latency().get("p50"), 0.001);
        assertEquals(1.0, r.latenciesMs().latency().get("max"), 0.001);
        assertEquals("echo", r.settings().get("pattern"));
        assertEquals(EchoRoute.LATENCY, r.settings().get("latency"));
        assertEquals(outbound.plan().runId() + "-back", back.plan().runId());
        assertEquals(back.plan().runId(), r.settings().get("returnRunId"));
    }

    @Test
    void theResponderReadsTheOutboundAndPublishesOnTheReturnAndStopsBeforeTheSystemsClose() throws Exception {
        InMemorySystem outbound = new InMemorySystem(clock);
        InMemorySystem back = new InMemorySystem(clock);

        run(EchoSystem.withResponder(outbound, back, Duration.ofSeconds(5)));

        assertEquals(List.of("prepare", "subscribe 0", "ready 0", "publisher 0", "close publisher 0",
                "close subscriber 0", "close"), outbound.eventsSnapshot());
        assertEquals(List.of("prepare", "subscribe 0", "ready 0", "publisher 0", "close subscriber 0",
                "close publisher 0", "close"), back.eventsSnapshot());
    }

    @Test
    void aResponderThatCannotEchoFailsTheRun() {
        InMemorySystem outbound = new InMemorySystem(clock);
        InMemorySystem back = new InMemorySystem(clock).failingPublishOf(s -> s == 100);

        RunFailedException e = assertThrows(RunFailedException.class,
                () -> run(EchoSystem.withResponder(outbound, back, Duration.ofSeconds(5))));

        assertEquals("IllegalStateException: the echo responder failed: injected failure at sequence 100", e.getMessage());
        assertEquals(RunStatus.FAILED, e.partialResult().status());
    }

    @Test
    void anEchoWithoutConsumersIsRefusedBeforeAnythingIsPrepared() {
        InMemorySystem outbound = new InMemorySystem(clock);
        EchoSystem echo = EchoSystem.withResponder(outbound, new InMemorySystem(clock), Duration.ofSeconds(5));

        Exception e = assertThrows(Exception.class, () -> echo.prepare(new dev.msgbench.core.driver.RunPlan("r", 100, 1, 0)));

        assertEquals("pattern echo needs at least one consumer to receive the echoes, got consumers 0", e.getMessage());
        assertTrue(outbound.eventsSnapshot().isEmpty());
    }
}
