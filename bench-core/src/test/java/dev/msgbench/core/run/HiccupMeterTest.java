package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.testing.ManualClock;

class HiccupMeterTest {

    private static final long MS = 1_000_000L;

    @Test
    void aForcedStallIsRecordedAsHowLateTheMeterWoke() {
        ManualClock clock = new ManualClock(0);
        Recorders recorders = new Recorders();
        int[] pauses = {0};
        // the fifth pause stalls 50 ms longer than asked; the eleventh ends the run
        HiccupMeter.Pause pause = nanos -> {
            if (++pauses[0] == 11) {
                throw new InterruptedException();
            }
            clock.advance(nanos + (pauses[0] == 5 ? 50 * MS : 20_000));
        };
        new HiccupMeter(clock, pause, recorders, new RunWindow(0, 0, 100 * MS)).run();

        assertTrue(Thread.interrupted(), "the meter keeps the interrupt that stopped it");
        Histogram hiccups = recorders.drainInterval().measured(HistogramKind.HICCUP);
        assertEquals(10, hiccups.getTotalCount());
        assertEquals(hiccups.highestEquivalentValue(50 * MS), hiccups.getMaxValue());
        assertEquals(hiccups.highestEquivalentValue(20_000), hiccups.getValueAtPercentile(50));
    }

    @Test
    void warmUpHiccupsStayOutOfTheMeasuredHistogram() {
        ManualClock clock = new ManualClock(0);
        Recorders recorders = new Recorders();
        int[] pauses = {0};
        HiccupMeter.Pause pause = nanos -> {
            if (++pauses[0] == 5) {
                throw new InterruptedException();
            }
            clock.advance(nanos);
        };
        new HiccupMeter(clock, pause, recorders, new RunWindow(0, 2 * MS, 100 * MS)).run();

        assertTrue(Thread.interrupted(), "the meter keeps the interrupt that stopped it");
        Recorders.Interval interval = recorders.drainInterval();
        assertEquals(4, interval.all(HistogramKind.HICCUP).getTotalCount());
        assertEquals(2, interval.measured(HistogramKind.HICCUP).getTotalCount());
    }

    @Test
    @Timeout(10)
    void aRunningMeterStopsPromptlyWithEverythingItMeasuredInTheRecorders() {
        ManualClock clock = new ManualClock(0);
        Recorders recorders = new Recorders();
        AtomicInteger pauses = new AtomicInteger();
        CountDownLatch tenMeasured = new CountDownLatch(1);
        // ten pauses of 1 ms and 30 us; the eleventh lasts until stop() interrupts it
        HiccupMeter.Pause pause = nanos -> {
            if (pauses.incrementAndGet() > 10) {
                tenMeasured.countDown();
                new CountDownLatch(1).await();
            }
            clock.advance(nanos + 30_000);
        };
        HiccupMeter meter = HiccupMeter.start(recorders, new RunWindow(0, 0, 1_000 * MS), clock, pause);
        awaitUninterruptibly(tenMeasured);
        meter.stop();
        meter.stop();

        Histogram hiccups = recorders.drainInterval().measured(HistogramKind.HICCUP);
        assertEquals(10, hiccups.getTotalCount());
        assertEquals(hiccups.highestEquivalentValue(30_000), hiccups.getMaxValue());
        assertEquals(11, pauses.get(), "no pause after the stop");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
