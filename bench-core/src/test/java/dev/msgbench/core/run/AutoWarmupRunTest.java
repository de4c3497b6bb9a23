package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.Workload;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;

/**
 * {@code --warmup auto} on the fake clock, where the in-memory system delivers at once: a steady
 * second has a p50 of 0, and every boundary is exact.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AutoWarmupRunTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int RATE = 1_000;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);
    private final InMemorySystem system = new InMemorySystem(clock);

    private RunResult run(Duration maxWarmup, Duration duration, String... faults) throws Exception {
        RunSpec config = new RunSpec("e2e", "in-memory",
                Pacing.FixedRate.withAutoWarmup(RATE, Arrival.UNIFORM, maxWarmup, duration), 100, 1, 1, 42,
                Duration.ofSeconds(10), Duration.ofSeconds(5), dir, false, Map.of("local", true))
                .withFaults(new FaultPlan(List.of(faults).stream().map(FaultSpec::parse).toList(), FaultPlan.DEFAULT_TIMEOUT));
        return FakeClockRuns.loadRun(config, system, system, clock, new PrintStream(out, true, StandardCharsets.UTF_8))
                .execute();
    }

    private String summary() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private List<String> log() throws Exception {
        return Files.readAllLines(dir.resolve(IntervalLog.FILE_NAME));
    }

    @Test
    void aSystemSteadyFromTheStartIsJudgedSettledAfterTenSecondsAndMeasuredFromTheNextForExactlyTheDuration()
            throws Exception {
        RunResult r = run(Duration.ofSeconds(60), Duration.ofSeconds(5));

        assertEquals(RunStatus.COMPLETE, r.status());
        Workload w = r.workload();
        assertEquals(Workload.AUTO_WARMUP, w.warmup());
        assertEquals(Boolean.TRUE, w.warmupSettled());
        assertEquals(11.0, w.warmupSeconds());
        assertEquals(5.0, w.durationSeconds());
        // the schedule went on from the start without a break: 11 s of warm-up, then 5 s measured
        assertEquals(16 * RATE, r.counts().sent());
        assertEquals(5 * RATE, r.counts().measuredSent());
        assertEquals(5 * RATE, r.latenciesMs().latency().get("count"));
        // (the load generator's own warning may appear: a fake-clock run is seconds of schedule in milliseconds)
        assertTrue(r.warnings().stream().noneMatch(warning -> warning.startsWith(ResultBuilder.UNSETTLED_WARNING)
                || warning.startsWith(ResultBuilder.NOT_STEADY_WARNING)), r.warnings().toString());
        assertTrue(log().contains("#measured from: 11.000 s from StartTime (warm-up auto: settled)"), log().toString());
        assertTrue(log().contains("#warm-up: auto, until settled, at most 60.000 s from StartTime, then measured: 5.000 s"),
                log().toString());
        assertTrue(summary().contains("in-memory, 1,000 msg/s of 100 B for 5 s after 11 s of warm-up (auto: settled) ("),
                summary());
        assertEquals(w, ResultFiles.readResult(dir).workload());
    }

    @Test
    void aSystemSlowAtFirstSettlesLaterAndTheTransientIsLeftOutOfTheMeasuredPart() throws Exception {
        // frozen from 1 s to 4 s: three seconds without delivery, then the backlog at once
        system.freezing(SECOND, 3 * SECOND);
        RunResult r = run(Duration.ofSeconds(60), Duration.ofSeconds(5));

        Workload w = r.workload();
        assertEquals(Boolean.TRUE, w.warmupSettled());
        // [4 s, 5 s) received the backlog, the one second a window may have out of level: the
        // windows [4 s, 9 s) and [9 s, 14 s) are judged at 14 s
        assertEquals(15.0, w.warmupSeconds());
        assertEquals(5 * RATE, r.counts().measuredSent());
        assertEquals(0, r.counts().lost());
        // the 3 s the backlog waited are in the warm-up only
        assertEquals(0.0, r.latenciesMs().latency().get("max"));
        assertTrue(log().contains("#measured from: 15.000 s from StartTime (warm-up auto: settled)"), log().toString());
    }

    @Test
    void aSystemThatNeverSettlesIsMeasuredFromTheBoundAndSaysSo() throws Exception {
        // 1.5 s frozen in every 4 s: every five seconds hold one without a delivery
        system.freezing(SECOND, 1_500_000_000L, 4 * SECOND);
        RunResult r = run(Duration.ofSeconds(20), Duration.ofSeconds(6));

        Workload w = r.workload();
        assertEquals(Boolean.FALSE, w.warmupSettled());
        assertEquals(20.0, w.warmupSeconds());
        assertEquals(6 * RATE, r.counts().measuredSent());
        assertTrue(r.warnings().contains("warm-up did not settle within 20 s; measuring anyway"), r.warnings().toString());
        assertTrue(log().contains("#measured from: 20.000 s from StartTime (warm-up auto: did not settle within 20 s)"),
                log().toString());
        assertTrue(summary().contains("for 6 s after 20 s of warm-up (auto: did not settle in 20 s) ("), summary());
    }

    @Test
    void faultTimesCountFromTheDecidedMeasureStart() throws Exception {
        RunResult r = run(Duration.ofSeconds(60), Duration.ofSeconds(4), "pause=500ms@1s");

        assertEquals(11.0, r.workload().warmupSeconds());
        assertEquals(1.0, r.faults().get(0).event().askedAtSeconds());
        assertEquals(Double.valueOf(1.0), r.faults().get(0).event().doneAtSeconds());
        // the pause is in the measured part: a message waited for it
        assertEquals(500, r.latenciesMs().latency().get("max"), 1);
    }
}
