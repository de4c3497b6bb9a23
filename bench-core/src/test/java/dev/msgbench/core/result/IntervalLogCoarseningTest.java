package dev.msgbench.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.testing.TakesSeconds;

/** A day of one-second intervals written as a run writes them: bounded on disk, and nothing lost on the way. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IntervalLogCoarseningTest {

    private static final long START_MILLIS = 1_795_568_584_968L;
    private static final int DAY_SECONDS = 86_400;
    private static final List<String> TAGS = List.of("latency", "send-delay");

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void aDayOfSecondsStaysWithinTheBoundAndReadsBackToTheSameHistograms() throws IOException {
        IntervalSpans spans = new IntervalSpans(3600, 10, 64L << 20);
        Map<String, Histogram> written = write(spans, DAY_SECONDS, 10);

        long bytes = Files.size(dir.resolve(IntervalLog.FILE_NAME));
        assertTrue(bytes <= spans.maxBytes(), bytes + " bytes, bound " + spans.maxBytes());
        Map<String, Histogram> read = new HashMap<>();
        TreeMap<Long, Long> lengthsByStart = new TreeMap<>();
        forEach((tag, h) -> {
            read.computeIfAbsent(tag, t -> new Histogram(h)).add(h);
            lengthsByStart.put(h.getStartTimeStamp() - START_MILLIS, h.getEndTimeStamp() - h.getStartTimeStamp());
        });
        for (String tag : TAGS) {
            assertEquals(written.get(tag), read.get(tag), tag);
        }
        assertEquals(1000L, lengthsByStart.floorEntry(3_599_000L).getValue());
        assertTrue(lengthsByStart.ceilingEntry(3_600_000L).getValue() >= 10_000L, lengthsByStart.ceilingEntry(3_600_000L).toString());
        assertEquals(3600 + (DAY_SECONDS - 3600) / 10, lengthsByStart.size(), "intervals: an hour of seconds, then 10 s ones");
    }

    @Test
    @TakesSeconds
    void intervalsGrowLongerWhenTheBudgetAsksForIt() throws IOException {
        IntervalSpans spans = new IntervalSpans(600, 10, 256L << 10);
        Map<String, Histogram> written = write(spans, 6 * 3600, 10);

        long bytes = Files.size(dir.resolve(IntervalLog.FILE_NAME));
        assertTrue(bytes <= spans.maxBytes(), bytes + " bytes, bound " + spans.maxBytes());
        Map<String, Histogram> read = new HashMap<>();
        long[] longest = {0};
        forEach((tag, h) -> {
            read.computeIfAbsent(tag, t -> new Histogram(h)).add(h);
            longest[0] = Math.max(longest[0], h.getEndTimeStamp() - h.getStartTimeStamp());
        });
        assertEquals(written.get("latency"), read.get("latency"));
        assertTrue(longest[0] > 10_000L, "10 s intervals would outgrow 256 KiB: longer ones, got " + longest[0] + " ms");
    }

    @Test
    void aRunWithinTheFineSpanSaysOnlyThatItsIntervalsAreSeconds() {
        assertEquals("interval log (latency.hlog): one-second intervals", IntervalSpans.DEFAULT.describe(600));
        assertEquals("interval log (latency.hlog): one-second intervals for the first 1 h, then 10 s ones (longer if "
                + "needed) to stay within 256.0 MiB for the 24 h run, unless the first 1 h alone takes more (about 35 MB at "
                + "10,000 msg/s); intervals.csv: about 7.4 MiB (a row a second)", IntervalSpans.DEFAULT.describe(DAY_SECONDS));
    }

    @Test
    void eachCoarseIntervalGetsOneCpuCommentOverItsSecondsAndIntervalsCsvKeepsEverySecond() throws IOException {
        IntervalSpans spans = new IntervalSpans(20, 10, 64L << 20);
        Histogram interval = new Histogram(1, 10_000_000_000L, 2);
        interval.recordValue(1_000_000);
        try (IntervalLog log = new IntervalLog(dir, START_MILLIS, 0, 40).coarsen(spans, 0, 40)) {
            for (int s = 0; s < 40; s++) {
                long from = START_MILLIS + s * 1000L;
                log.write("latency", interval, from, from + 1000);
                // busy 50% in the first 30 s, then 100%
                double busy = s < 30 ? 0.5 : 1.0;
                log.writeCounts(from, from + 1000, 1, 1, 1, 0, 0, interval, new CpuUsage(1, 2, busy, 0.0,
                        Map.of(0, busy, 1, busy), 2 * busy, 0, null, List.of(), 0.0, 0.0));
            }
        }

        List<String> cpu = Files.readAllLines(dir.resolve(IntervalLog.FILE_NAME)).stream()
                .filter(l -> l.startsWith("#" + IntervalLog.CPU_COMMENT)).toList();
        assertEquals(22, cpu.size(), "20 seconds, then two 10-second intervals");
        assertEquals("#cpu 19.000-20.000 s: machine 50% busy of 2 cores (steal 0%); load generator 1.00 cores, "
                + "interrupts 0.00, other processes 0.00", cpu.get(19));
        assertEquals("#cpu 20.000-30.000 s: machine 50% busy of 2 cores (steal 0%); load generator 1.00 cores, "
                + "interrupts 0.00, other processes 0.00", cpu.get(20));
        assertEquals("#cpu 30.000-40.000 s: machine 100% busy of 2 cores (steal 0%); load generator 2.00 cores, "
                + "interrupts 0.00, other processes 0.00", cpu.get(21));
        assertEquals(2 + 40, Files.readAllLines(dir.resolve(IntervalLog.COUNTS_FILE_NAME)).size());
    }

    /** Writes {@code seconds} one-second intervals of {@code values} random latencies per tag; returns each tag's sum. */
    private Map<String, Histogram> write(IntervalSpans spans, int seconds, int values) {
        SplittableRandom random = new SplittableRandom(15);
        Map<String, Histogram> sums = new HashMap<>();
        // small histograms (2 digits, to 10 s): a day of them is cheap to write and read
        Histogram interval = new Histogram(1, 10_000_000_000L, 2);
        try (IntervalLog log = new IntervalLog(dir, START_MILLIS, 30, seconds - 30).coarsen(spans, 30, seconds)) {
            for (int s = 0; s < seconds; s++) {
                for (String tag : TAGS) {
                    interval.reset();
                    for (int v = 0; v < values; v++) {
                        interval.recordValue(100_000 + random.nextLong(5_000_000));
                    }
                    sums.computeIfAbsent(tag, t -> new Histogram(interval)).add(interval);
                    log.write(tag, interval, START_MILLIS + s * 1000L, START_MILLIS + (s + 1) * 1000L);
                }
            }
        }
        return sums;
    }

    private interface Visitor {
        void visit(String tag, Histogram h);
    }

    private void forEach(Visitor visitor) throws IOException {
        HistogramLogReader reader = new HistogramLogReader(dir.resolve(IntervalLog.FILE_NAME).toFile());
        try {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                visitor.visit(next.getTag(), (Histogram) next);
            }
        } finally {
            reader.close();
        }
    }
}
