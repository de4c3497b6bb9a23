package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.result.Workload;

class TargetRateTest {

    private static Workload workload(String schedule) {
        return new Workload(Workload.FIXED_RATE, 2_000, 0, 0, 100, 2, 4, "uniform", 1, 1, 1, 10, Workload.FIXED_WARMUP,
                null, schedule, null);
    }

    @Test
    void eachIntervalsTargetIsTheSchedulesCountOverItAfterTheWarmUpAtTheFirstRate() {
        TargetRate target = TargetRate.of(workload("1000/s for 2s, 1000/s to 3000/s over 2s"));

        assertEquals(1_000, target.perSecond(0, 1));
        assertEquals(1_000, target.perSecond(3, 1));
        // the ramp's first second: from 1,000 to 2,000 msg/s, 1,500 due
        assertEquals(1_500, target.perSecond(4, 1), 1e-9);
        assertEquals(2_500, target.perSecond(5, 1), 1e-9);
        assertEquals(0, target.perSecond(6, 1));
        // an interval of half a second: from 1,000 to 1,500 msg/s
        assertEquals(1_250, target.perSecond(4, 0.5), 1e-9);
    }

    @Test
    void aRunAtAConstantRateHasNoScheduleToDraw() {
        assertNull(TargetRate.of(workload(null)));
    }
}
