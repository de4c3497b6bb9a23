package dev.msgbench.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.testing.TakesSeconds;

/**
 * The recorders' epoch swap under load: writer threads record as fast as they can, one value,
 * two values and batches of a poll, while one sampler swaps intervals as fast as it can. Every
 * value must be counted exactly once, in its kind and phase: the interval sums add up to what
 * each writer recorded, value by value.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThreadRecordersStressTest {

    private static final int WRITERS = 4;
    private static final int MESSAGES = 150_000;
    private static final int BATCH = 7;
    private static final HistogramKind[] KINDS = HistogramKind.values();

    @Test
    @TakesSeconds
    void everyValueRecordedWhileASamplerSwapsIntervalsAsFastAsItCanIsCountedExactlyOnce() throws Exception {
        Recorders recorders = new Recorders();
        Histogram[] expectedAll = histograms();
        Histogram[] expectedMeasured = histograms();
        Histogram[] drainedAll = histograms();
        Histogram[] drainedMeasured = histograms();
        AtomicInteger writing = new AtomicInteger(WRITERS);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        List<Histogram[][]> expectedByWriter = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Histogram[][] expected = {histograms(), histograms()};
            expectedByWriter.add(expected);
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    write(recorders.current(), writer, expected[0], expected[1]);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    writing.decrementAndGet();
                }
            }, "writer-" + w);
            t.start();
            writers.add(t);
        }
        int drainsWhileWriting = 0;
        go.countDown();
        while (writing.get() > 0) {
            addTo(recorders.drainInterval(), drainedAll, drainedMeasured);
            drainsWhileWriting++;
        }
        for (Thread t : writers) {
            t.join();
        }
        addTo(recorders.drainInterval(), drainedAll, drainedMeasured);

        assertEquals(null, failure.get());
        for (Histogram[][] expected : expectedByWriter) {
            for (int k = 0; k < KINDS.length; k++) {
                expectedAll[k].add(expected[0][k]);
                expectedMeasured[k].add(expected[1][k]);
            }
        }
        for (int k = 0; k < KINDS.length; k++) {
            assertSameValues(expectedAll[k], drainedAll[k], KINDS[k] + ", warm-up and measured");
            assertSameValues(expectedMeasured[k], drainedMeasured[k], KINDS[k] + ", measured");
        }
        long perWriter = MESSAGES / 3 * (1 + 2 + 2 * BATCH);
        assertEquals(WRITERS * perWriter, total(drainedAll), "values recorded in all");
        assertTrue(drainsWhileWriting >= 3, "the sampler swapped while the writers recorded: " + drainsWhileWriting);
    }

    /**
     * One writer's share: a third of its messages one value each, a third two values each, a third
     * in batches of {@link #BATCH} pairs; every other message measured, the rest warm-up. Each value
     * also goes into {@code all} and, when measured, {@code measured}: what the sampler must find.
     */
    private static void write(ThreadRecorders r, int writer, Histogram[] all, Histogram[] measured) {
        for (int i = 0; i < MESSAGES; i += 3) {
            boolean inMeasurement = (i & 1) == 0;
            long v = value(writer, i);
            r.record(HistogramKind.LATENCY, inMeasurement, v);
            expect(all, measured, HistogramKind.LATENCY, inMeasurement, v);

            long service = value(writer, i + 1);
            r.record(HistogramKind.LATENCY, v, HistogramKind.SERVICE, service, inMeasurement);
            expect(all, measured, HistogramKind.LATENCY, inMeasurement, v);
            expect(all, measured, HistogramKind.SERVICE, inMeasurement, service);

            r.openBatch(HistogramKind.ACK, HistogramKind.SEND_DELAY);
            for (int b = 0; b < BATCH; b++) {
                long ack = value(writer, i + 2 + b);
                long delay = value(writer, i + 3 + b);
                r.addToBatch(ack, delay, inMeasurement);
                expect(all, measured, HistogramKind.ACK, inMeasurement, ack);
                expect(all, measured, HistogramKind.SEND_DELAY, inMeasurement, delay);
            }
            r.closeBatch();
        }
    }

    /** Values spread over six decades, different for each writer. */
    private static long value(int writer, int i) {
        return 1 + (i * 7919L + writer * 104_729L) % 10_000_000L;
    }

    private static void expect(Histogram[] all, Histogram[] measured, HistogramKind kind, boolean inMeasurement, long v) {
        all[kind.ordinal()].recordValue(v);
        if (inMeasurement) {
            measured[kind.ordinal()].recordValue(v);
        }
    }

    private static void addTo(Recorders.Interval interval, Histogram[] all, Histogram[] measured) {
        for (HistogramKind kind : KINDS) {
            all[kind.ordinal()].add(interval.all(kind));
            measured[kind.ordinal()].add(interval.measured(kind));
        }
    }

    private static Histogram[] histograms() {
        Histogram[] h = new Histogram[KINDS.length];
        for (int k = 0; k < h.length; k++) {
            h[k] = Recorders.newHistogram();
        }
        return h;
    }

    private static long total(Histogram[] histograms) {
        long total = 0;
        for (Histogram h : histograms) {
            total += h.getTotalCount();
        }
        return total;
    }

    /** Value by value: the count of every recorded value, and nothing else. */
    private static void assertSameValues(Histogram expected, Histogram actual, String what) {
        assertEquals(expected.getTotalCount(), actual.getTotalCount(), what + ": count");
        for (HistogramIterationValue v : expected.recordedValues()) {
            assertEquals(v.getCountAtValueIteratedTo(), actual.getCountAtValue(v.getValueIteratedTo()),
                    what + ": values at " + v.getValueIteratedTo());
        }
    }
}
