package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.testing.ManualClock;

/**
 * latency.hlog is on disk second by second, not only when the run closes it: a measuring JVM
 * killed with SIGKILL (no close, no shutdown hook) still leaves every interval it took.
 */
@Timeout(10)
class IntervalLogOnDiskTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void afterEachTickTheFileOnDiskHoldsEveryIntervalSoFarBeforeTheLogIsClosed() throws Exception {
        Recorders recorders = new Recorders();
        ManualClock clock = new ManualClock(0);
        IntervalLog log = new IntervalLog(dir, 0, 0, 10);
        try {
            ProgressMonitor monitor = new ProgressMonitor(clock.watcher(), recorders, new Accounting(1),
                    new RunWindow(0, 0, 10 * SECOND), 0, log, null, true, false);
            Thread thread = new Thread(monitor, "test-monitor");
            thread.start();
            for (int second = 1; second <= 3; second++) {
                for (int i = 0; i < second; i++) {
                    recorders.record(HistogramKind.LATENCY, true, 1_000_000);
                }
                clock.advance(SECOND); // returns once the tick at this second has sampled

                assertEquals(expectedCounts(second), latencyCountsOnDisk(), "after " + second + " s, log still open");
            }
            monitor.finish(thread);
        } finally {
            log.close();
        }
    }

    private static List<Long> expectedCounts(int seconds) {
        List<Long> counts = new ArrayList<>();
        for (long s = 1; s <= seconds; s++) {
            counts.add(s);
        }
        return counts;
    }

    private List<Long> latencyCountsOnDisk() throws Exception {
        List<Long> counts = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve(IntervalLog.FILE_NAME).toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            if (HistogramKind.ofTag(h.getTag()) == HistogramKind.LATENCY) {
                counts.add(((Histogram) h).getTotalCount());
            }
        }
        return counts;
    }
}
