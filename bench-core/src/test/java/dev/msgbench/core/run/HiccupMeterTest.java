package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

        Histogram hiccups = recorders.drainInterval().measured(HistogramKind.HICCUP);
        assertEquals(10, hiccups.getTotalCount());
        // three significant digits: values are exact to 0.1%
        assertEquals(50.02, hiccups.getMaxValue() / 1e6, 0.05);
        assertEquals(0.020, hiccups.getValueAtPercentile(50) / 1e6, 0.0001);
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

        Recorders.Interval interval = recorders.drainInterval();
        assertEquals(4, interval.all(HistogramKind.HICCUP).getTotalCount());
        assertEquals(2, interval.measured(HistogramKind.HICCUP).getTotalCount());
    }

    @Test
    @Timeout(10)
    void aRunningMeterStopsPromptlyAndRecordsOnTheRealClock() throws Exception {
        Recorders recorders = new Recorders();
        long now = System.nanoTime();
        HiccupMeter meter = HiccupMeter.start(recorders, new RunWindow(now, now, now + 1_000 * MS),
                dev.msgbench.core.time.NanoClock.system());
        Thread.sleep(50);
        meter.stop();
        meter.stop();
        assertTrue(recorders.drainInterval().measured(HistogramKind.HICCUP).getTotalCount() > 5);
    }
}
