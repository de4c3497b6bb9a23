package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class CpuTimesTest {

    /** A 2-CPU machine's /proc/stat (kernel 6.x): the total line first, then one line per CPU, then the rest. */
    static final String PROC_STAT = """
            cpu  19390 0 7019 392094 426 0 1344 21 0 0
            cpu0 7650 0 2886 198962 27 0 656 4 0 0
            cpu1 11740 5 4133 193131 398 0 687 17 0 0
            intr 1769694 0 0 0
            ctxt 6562699
            btime 1764404000
            """;

    @Test
    void eachCpuLineGivesBusyIdleAndStealTicksAndTheTotalLineIsLeftOut() {
        CpuTimes times = CpuTimes.parse(PROC_STAT);

        assertEquals(List.of(new CpuTimes.Cpu(0, 198962 + 27, 4, 656),
                new CpuTimes.Cpu(1, 193131 + 398, 17, 687)), times.cpus());
        assertTrue(times.stealReported());
    }

    @Test
    void aKernelBeforeStealReportsNone() {
        CpuTimes times = CpuTimes.parse("cpu  10 0 10 80 0 0 0\ncpu0 10 0 10 80 0 0 0\n");

        assertEquals(List.of(new CpuTimes.Cpu(0, 80, 0, 0)), times.cpus());
        assertFalse(times.stealReported());
    }

    @Test
    void cpusAreKnownByTheirNumbersWhichMayHaveGaps() {
        CpuTimes times = CpuTimes.parse("cpu0 1 0 0 9 0 0 0 0\ncpu2 2 0 0 8 0 0 0 0\n");

        assertEquals(8, times.cpu(2).idleTicks());
        assertNull(times.cpu(1), "cpu1 is offline");
    }

    @Test
    void aCpuLineWithTooFewTimesIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuTimes.parse("cpu0 1 2 3\n"));
        assertEquals("a /proc/stat line with fewer than four times: cpu0 1 2 3", e.getMessage());
    }

    @Test
    void thisMachinesTimesListEveryOnlineCpu() {
        assertEquals(CpuAffinity.online().size(), CpuTimes.read().cpus().size());
    }
}
