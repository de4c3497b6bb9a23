package dev.msgbench.core.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunFailedException;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.testing.TakesSeconds;
import dev.msgbench.core.time.Arrival;

/**
 * Faults in whole runs on the fake clock: 1,000 msg/s after 2 s of warm-up, a system that
 * answers at once and holds what is published while a node is down. Every time is exact.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultRunTest {

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(0);
    private final InMemorySystem system = new InMemorySystem(clock);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private RunResult run(Duration timeout, String... faults) throws Exception {
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(1_000, Arrival.UNIFORM,
                Duration.ofSeconds(2), Duration.ofSeconds(6)), 100, 1, 1, 42, Duration.ofSeconds(10),
                Duration.ofSeconds(5), dir, false, Map.of("local", true))
                .withFaults(new FaultPlan(Arrays.stream(faults).map(FaultSpec::parse).toList(), timeout));
        return FakeClockRuns.loadRun(config, system, system, clock, new PrintStream(out, true, StandardCharsets.UTF_8))
                .execute();
    }

    private RunResult run(String... faults) throws Exception {
        return run(FaultPlan.DEFAULT_TIMEOUT, faults);
    }

    @Test
    @TakesSeconds
    void aPauseIsDoneAndUndoneOnTimeAndItsOutageMeasuredExactly() throws Exception {
        RunResult r = run("pause=1500ms@2s");

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(0, r.counts().lost());
        assertEquals(r.counts().sent(), r.counts().received());
        assertTrue(system.events().containsAll(List.of("signal STOP 1", "signal CONT 1")), system.events().toString());
        FaultReport fault = r.faults().get(0);
        assertEquals(new FaultEvent("pause=1500ms@2s", "pause", 1, 2.0, 2.0, 3.5, "done", null, null), fault.event());
        // the last message before the pause went at 1.999 s, the held ones all came at 3.5 s
        assertEquals(1.501, fault.longestNoDeliverySeconds(), 1e-9);
        assertEquals(false, fault.noDeliveryToEnd(), "the held messages closed the gap");
        // the message due at 2.000 s waited the whole pause (HdrHistogram keeps 3 digits)
        assertEquals(1_500, fault.maxLatencyAfterMs(), 1.5);
        // [3 s, 4 s) holds the resume; [4 s, 5 s) is back to the latency before the fault
        assertEquals(2.0, fault.recoverySeconds());
        // the in-memory broker delivers its backlog the moment it resumes: no second gap
        assertEquals(0.0, fault.gapAfterEndSeconds());
        // and delivers at once on the fake clock: the level recovery is judged against
        assertEquals(0.0, fault.p99BeforeMs());
    }

    @Test
    void aKilledNodeExplainsTheLossesInsteadOfTheSystemsGuess() throws Exception {
        system.losingBecause("streams are trimmed").dropping(s -> s == 1_500);
        RunResult r = run("kill@1s:restart-after=1s");

        assertEquals(1, r.counts().lost());
        assertTrue(r.warnings().stream().noneMatch(w -> w.contains("streams are trimmed")), r.warnings().toString());
    }

    @Test
    void aNodeThatNeverComesBackLeavesAnOutageToTheEndNotNone() throws Exception {
        RunResult r = run("kill@1s:restart-after=never");

        FaultReport fault = r.faults().get(0);
        assertTrue(r.counts().lost() > 0, "messages sent to a dead node are lost");
        // from the last delivery, just before the kill at 1 s, to the end of the 6 s measured and of the 10 s drain
        assertEquals(5 + 10, fault.longestNoDeliverySeconds(), 0.01);
        assertEquals(true, fault.noDeliveryToEnd());
        assertEquals(null, fault.recoverySeconds());
    }

    /**
     * As Kafka on a full disk: the broker stops and the client refuses every later send, so the run
     * drains at once (each acknowledged message arrived, the rest failed) with no delivery after
     * the fault; no delivery ever closes that gap, and the line says it ran to the end.
     */
    @Test
    void aBrokerStoppedForGoodWhileSendsFailHasNoDeliveryToTheEndOfTheRun() throws Exception {
        // the fault at 1 s of the measured time is 3 s after the start: message 3,000 and later
        system.dropping(s -> s >= 3_000).failingToAcknowledge(s -> s >= 3_000);
        RunResult r = run("disk-full@1s:for=1s");

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(5_000, r.counts().sendErrors());
        assertEquals(0, r.counts().acknowledgedLost());
        FaultReport fault = r.faults().get(0);
        // from the last delivery at 2.999 s to the last send at 7.999 s, where the drain ended at once
        assertEquals(5.0, fault.longestNoDeliverySeconds(), 1e-9);
        assertEquals(true, fault.noDeliveryToEnd());
        assertEquals(null, fault.recoverySeconds());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(";  no delivery for the last 5.000 s of the run,  max "
                + "latency after "), out.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(",  not recovered\n"), out.toString());
        assertEquals(r.faults(), ResultFiles.readResult(dir).faults());
    }

    @Test
    void aPowerCutExplainsTheLossesInsteadOfTheSystemsGuess() throws Exception {
        system.losingBecause("streams are trimmed").dropping(s -> s == 1_500);
        RunResult r = run("power-loss@1s:restart-after=1s");

        assertEquals(1, r.counts().lost());
        assertTrue(r.warnings().stream().noneMatch(w -> w.contains("streams are trimmed")), r.warnings().toString());
        RunResult paused = run("pause=1s@1s");
        assertTrue(paused.warnings().stream().anyMatch(w -> w.contains("streams are trimmed")),
                "a pause takes nothing from memory: the system's own reason stands; " + paused.warnings());
    }

    @Test
    void theTimelineIsInTheIntervalLogAndTheSummary() throws Exception {
        RunResult r = run("pause=1500ms@2s");

        List<String> log = Files.readAllLines(dir.resolve(IntervalLog.FILE_NAME));
        assertTrue(log.contains("#[fault pause node=1 asked 2.000s done 2.000s ended 3.500s]"), log.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("  fault pause=1500ms@2s (node 1): asked 2.000 s, "
                + "done 2.000 s, ended 3.500 s;  no delivery for 1.501 s,  max latency after 1,500." ), out.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("ms,  recovered after 2.0 s\n"), out.toString());
        assertEquals(r.faults(), ResultFiles.readResult(dir).faults());
    }

    @Test
    void aKillHitsTheLeaderOfTheMomentAndRestartsItOnTime() throws Exception {
        system.withNodes(3, OptionalInt.of(2));
        RunResult r = run("kill@1s:restart-after=1s", "pause=500ms@4s:node=any-follower");

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(0, r.counts().lost());
        assertEquals(List.of("kill 2", "restart 2", "signal STOP 1", "signal CONT 1"),
                system.events().stream().filter(e -> e.startsWith("kill") || e.startsWith("restart")
                        || e.startsWith("signal")).toList());
        assertEquals(new FaultEvent("kill@1s:restart-after=1s", "kill", 2, 1.0, 1.0, 2.0, "done", null, null),
                r.faults().get(0).event());
        assertEquals(1.001, r.faults().get(0).longestNoDeliverySeconds(), 1e-9);
        assertEquals(new FaultEvent("pause=500ms@4s:node=any-follower", "pause", 1, 4.0, 4.0, 4.5, "done", null, null),
                r.faults().get(1).event());
        assertEquals(0.501, r.faults().get(1).longestNoDeliverySeconds(), 1e-9);
    }

    @Test
    void aFaultThatCannotBeDoneIsRecordedAsFailedAndTheRunGoesOn() throws Exception {
        system.withNodes(3, OptionalInt.empty());
        RunResult r = run("kill@1s:node=5", "pause=1s@2s", "restart@3s:node=3", "pause=1s@4s:node=coordinator");

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(List.of("failed: node 5 does not exist: the broker has 3 nodes", "failed: no leader found", "done",
                "failed: no transaction coordinator found (the run commits no transactions, or none coordinates now)"),
                r.faults().stream().map(f -> f.event().outcome()).toList());
        assertEquals(new FaultEvent("kill@1s:node=5", "kill", null, 1.0, null, null,
                "failed: node 5 does not exist: the broker has 3 nodes", null, null), r.faults().get(0).event());
        assertEquals(null, r.faults().get(0).recoverySeconds());
        List<String> log = Files.readAllLines(dir.resolve(IntervalLog.FILE_NAME));
        assertTrue(log.contains("#[fault kill asked 1.000s failed: node 5 does not exist: the broker has 3 nodes]"),
                log.toString());
        assertTrue(log.contains("#[fault restart node=3 asked 3.000s done 3.000s ended 3.000s]"), log.toString());
    }

    @Test
    void execRunsTheUsersCommandAndKeepsItsExitStatusAndOutput() throws Exception {
        RunResult r = run("exec@1s='echo hi; echo oops >&2; exit 3'", "exec@2s=true");

        FaultEvent failing = r.faults().get(0).event();
        assertEquals(3, failing.exitStatus());
        assertEquals("hi\noops\n", failing.output());
        assertEquals("done", failing.outcome());
        assertEquals(null, failing.node());
        assertEquals(0, r.faults().get(1).event().exitStatus());
        assertEquals("", r.faults().get(1).event().output());
        assertEquals(RunStatus.COMPLETE, r.status());
    }

    @Test
    void aSystemGoneForLongerThanTheFaultTimeoutEndsTheRunWithPartialResults() throws Exception {
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> run(Duration.ofSeconds(2), "kill@1s:restart-after=never"));

        assertEquals("FaultTimeoutException: nothing delivered for 2.1 s after fault 'kill@1s:restart-after=never' "
                + "(fault-timeout 2s)", e.getMessage());
        RunResult partial = ResultFiles.readResult(dir);
        assertEquals(RunStatus.FAILED, partial.status());
        assertEquals(e.getMessage(), partial.error());
        FaultReport fault = partial.faults().get(0);
        assertEquals("done", fault.event().outcome());
        assertTrue(fault.longestNoDeliverySeconds() >= 2.1, fault.toString());
        assertEquals(null, fault.recoverySeconds());
    }
}
