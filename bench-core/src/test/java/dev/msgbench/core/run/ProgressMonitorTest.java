package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.NanoClock;

@Timeout(10)
class ProgressMonitorTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private final Recorders recorders = new Recorders();
    private final RunWindow window = new RunWindow(0, 0, 3_000 * MS);

    private ProgressMonitor monitor(NanoClock clock, IntervalLog log) {
        return new ProgressMonitor(clock, recorders, new Accounting(1), window, 0, log, null, true, false);
    }

    @Test
    void eachSecondIsOneIntervalOfTheLogAndFinishingAddsThePartialLastOne() throws Exception {
        ManualClock clock = new ManualClock(0);
        ProgressMonitor monitor;
        try (IntervalLog log = new IntervalLog(dir, 0, 0, 3)) {
            monitor = monitor(clock.watcher(), log);
            Thread thread = new Thread(monitor, "test-monitor");
            thread.start();
            recordLatencies(3);
            clock.advance(1_500 * MS); // the tick at 1 s takes these three
            recordLatencies(2);
            clock.advance(1_000 * MS); // the tick at 2 s takes these two
            recordLatencies(4);
            monitor.finish(thread); // at 2.5 s: the last four
        }

        assertEquals(List.of(3L, 2L, 4L), latencyCounts());
        assertEquals(9, monitor.measured(HistogramKind.LATENCY).getTotalCount());
    }

    @Test
    void aMonitorStoppedByAnInterruptKeepsTheFlag() throws Exception {
        try (IntervalLog log = new IntervalLog(dir, 0, 0, 3)) {
            ProgressMonitor monitor = monitor(new ManualClock(0).watcher(), log);
            Thread.currentThread().interrupt(); // as finish() interrupts the monitor's thread
            monitor.run();
        }

        assertTrue(Thread.interrupted(), "the interrupt is kept");
    }

    @Test
    void liveFiguresHaveEachIntervalsPhaseTargetAndCountsAndTheLastIsDone() throws Exception {
        ManualClock clock = new ManualClock(0);
        RunWindow warmupFirst = new RunWindow(0, 1_000 * MS, 10_000 * MS);
        Accounting accounting = new Accounting(1);
        List<IntervalFigures> told = new ArrayList<>();
        try (IntervalLog log = new IntervalLog(dir, 0, 1, 9)) {
            ProgressMonitor monitor = new ProgressMonitor(clock.watcher(), recorders, accounting, warmupFirst, 0, log,
                    null, false, false);
            monitor.tell(recording(told), now -> 500);
            Thread thread = new Thread(monitor, "test-monitor");
            thread.start();
            recordLatencies(3);
            clock.advance(1_000 * MS); // [0, 1 s]: warm-up
            clock.advance(1_000 * MS); // [1, 2 s]: measured
            monitor.sendingOver();
            clock.advance(1_000 * MS); // [2, 3 s]: measured, sending ended in it
            clock.advance(1_000 * MS); // [3, 4 s]: drain
            monitor.finish(thread);
        }

        assertEquals(List.of(RunPhase.WARM_UP, RunPhase.MEASURED, RunPhase.MEASURED, RunPhase.DRAIN, RunPhase.DONE),
                told.stream().map(IntervalFigures::phase).toList());
        assertEquals(List.of(500.0, 500.0, 500.0, 0.0, 0.0),
                told.stream().map(IntervalFigures::targetRateMsgsPerSec).toList());
        assertEquals(List.of(3L, 0L, 0L, 0L, 0L), told.stream().map(f -> f.latency().count()).toList());
        assertEquals(100_000 >> 10, told.get(0).latency().p99Nanos() >> 10, "p99 of the first interval");
        assertEquals(-1, told.get(1).latency().p99Nanos(), "no percentile for an empty interval");
        assertEquals(1_000 * MS, told.get(0).intervalNanos());
        assertEquals(4_000 * MS, told.get(4).elapsedNanos());
    }

    private static LiveFigures recording(List<IntervalFigures> told) {
        return new LiveFigures() {
            @Override
            public void started(RunSpec config, SystemInfo info) {
            }

            @Override
            public void interval(IntervalFigures figures) {
                told.add(figures);
            }

            @Override
            public void fault(FaultEvent event) {
            }
        };
    }

    private void recordLatencies(int count) {
        for (int i = 0; i < count; i++) {
            recorders.record(HistogramKind.LATENCY, true, 100_000);
        }
    }

    private List<Long> latencyCounts() throws Exception {
        List<Long> counts = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve(IntervalLog.FILE_NAME).toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            if (HistogramKind.ofTag(h.getTag()) == HistogramKind.LATENCY) {
                counts.add(((org.HdrHistogram.Histogram) h).getTotalCount());
            }
        }
        return counts;
    }
}
