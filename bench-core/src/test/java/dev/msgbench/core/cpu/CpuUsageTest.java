package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class CpuUsageTest {

    private static final long SECOND = 1_000_000_000L;

    /** Two CPUs, their idle and stolen ticks since boot. */
    private static CpuTimes machine(long idle0, long steal0, long idle1, long steal1) {
        return new CpuTimes(List.of(new CpuTimes.Cpu(0, idle0, steal0, 0), new CpuTimes.Cpu(1, idle1, steal1, 0)), true);
    }

    private static final CpuSnapshot FROM = new CpuSnapshot(10 * SECOND, machine(5000, 10, 4000, 10),
            3 * SECOND, List.of(new CpuSnapshot.NodeTicks(100, 500)), 20, SECOND);
    /** 2 s later (200 ticks a CPU): CPU 0 idle 10, CPU 1 idle 20 and 10 stolen; we used 2 s, spinning 0.6 s; the node 120 ticks, epmd 2. */
    private static final CpuSnapshot TO = new CpuSnapshot(12 * SECOND, machine(5010, 10, 4020, 20),
            5 * SECOND, List.of(new CpuSnapshot.NodeTicks(100, 620)), 22, SECOND + 600_000_000L);

    @Test
    void theUseInBetweenIsEachFigureOverTheSecondsBetween() {
        CpuUsage u = CpuUsage.between(FROM, TO);

        assertEquals(2.0, u.seconds(), 1e-9);
        assertEquals(2, u.machineCores());
        assertEquals(360 / 400.0, u.busyShare(), 1e-9);
        assertEquals(10 / 400.0, u.stealShare(), 1e-9);
        assertEquals(Map.of(0, 0.95, 1, 0.85), u.busyShareByCpu());
        assertEquals(1.8, u.busyCores(), 1e-9);
        assertEquals(1.0, u.generatorCores(), 1e-9);
        assertEquals(0.3, u.spinningCores(), 1e-9);
        assertEquals((120 + 2) / 100.0 / 2, u.brokerCores(), 1e-9);
        assertEquals(List.of(0.6), u.brokerNodeCores());
        assertEquals(1.8 - 1.0 - 0.61, u.othersCores(), 1e-9);
        assertEquals(0.9, u.busyShareOf(CpuList.parse("0-1")), 1e-9);
        assertEquals(0.95, u.busyShareOf(CpuList.parse("0")), 1e-9);
        assertNull(u.busyShareOf(CpuList.parse("7")), "a CPU the kernel did not list");
    }

    @Test
    void aCpuIsBusyForTheWallTimeItWasNotIdleWhateverItsTicksSampled() {
        // a tickless kernel: bursts between ticks left 2 busy ticks in a second whose idle time was 0.7 s
        CpuSnapshot from = new CpuSnapshot(0, new CpuTimes(List.of(new CpuTimes.Cpu(0, 0, 0, 0)), true), 0, null, 0, 0);
        CpuSnapshot to = new CpuSnapshot(SECOND, new CpuTimes(List.of(new CpuTimes.Cpu(0, 70, 0, 0)), true),
                SECOND * 3 / 10, null, 0, 0);

        CpuUsage u = CpuUsage.between(from, to);

        assertEquals(0.3, u.busyShare(), 1e-9);
        assertEquals(0.0, u.othersCores(), 1e-9, "the load generator's 0.3 cores are the busy time");
    }

    @Test
    void interruptsAreShownApartAndNotCountedAsOtherProcesses() {
        // loopback traffic's softirq on an idle CPU is busy time that no process is charged with
        CpuSnapshot from = new CpuSnapshot(0, new CpuTimes(List.of(new CpuTimes.Cpu(0, 0, 0, 0)), true), 0, null, 0, 0);
        CpuSnapshot to = new CpuSnapshot(SECOND, new CpuTimes(List.of(new CpuTimes.Cpu(0, 40, 0, 20)), true),
                SECOND * 4 / 10, null, 0, 0);

        CpuUsage u = CpuUsage.between(from, to);

        assertEquals(0.2, u.interruptCores(), 1e-9);
        assertEquals(0.0, u.othersCores(), 1e-9);
        assertEquals(0.6, u.busyCores(), 1e-9, "interrupts are busy time all the same");
    }

    @Test
    void aNodeRestartedInBetweenCountsItsNewProcessWholeAndOneDownCountsNothing() {
        CpuSnapshot from = new CpuSnapshot(0, CpuTimes.NONE, 0,
                List.of(new CpuSnapshot.NodeTicks(100, 500), new CpuSnapshot.NodeTicks(200, 700)), 0, 0);
        CpuSnapshot to = new CpuSnapshot(SECOND, CpuTimes.NONE, 0,
                List.of(new CpuSnapshot.NodeTicks(101, 30), new CpuSnapshot.NodeTicks(200, ProcessTicks.GONE)), 0, 0);

        CpuUsage u = CpuUsage.between(from, to);

        assertEquals(List.of(0.3, 0.0), u.brokerNodeCores());
        assertEquals(0.3, u.brokerCores(), 1e-9);
    }

    @Test
    void withoutProcStatOrABrokerTheirFiguresAreUnknownNotZero() {
        CpuSnapshot from = new CpuSnapshot(0, CpuTimes.NONE, 0, null, 0, 0);
        CpuSnapshot to = new CpuSnapshot(SECOND, CpuTimes.NONE, SECOND / 2, null, 0, 0);

        CpuUsage u = CpuUsage.between(from, to);

        assertNull(u.busyShare());
        assertNull(u.stealShare());
        assertNull(u.brokerCores());
        assertNull(u.othersCores());
        assertEquals(0.5, u.generatorCores(), 1e-9);
        assertEquals(List.of("", "", "0.500", ""), u.csvColumns());
        assertEquals("machine: not reported; load generator 0.50 cores", u.line());
    }

    @Test
    void spinningIsNeverCountedAsMoreThanTheLoadGeneratorUsed() {
        // the spin counter reads the wall clock around yields, which may outlast the CPU time they took
        CpuSnapshot from = new CpuSnapshot(0, CpuTimes.NONE, 0, null, 0, 0);
        CpuSnapshot to = new CpuSnapshot(SECOND, CpuTimes.NONE, SECOND / 2, null, 0, SECOND);

        assertEquals(0.5, CpuUsage.between(from, to).spinningCores(), 1e-9);
    }

    @Test
    void theLineAndTheColumnsSayWhatEachUsed() {
        CpuUsage u = CpuUsage.between(FROM, TO);

        assertEquals("machine 90% busy of 2 cores (steal 3%); load generator 1.00 cores (0.30 spinning), broker 0.61, "
                + "interrupts 0.00, other processes 0.19", u.line());
        assertEquals(List.of("0.900", "0.025", "1.000", "0.610"), u.csvColumns());
    }

    @Test
    void twoIntervalsAddUpAsOneWeightedByTheirLengths() {
        CpuSnapshot third = new CpuSnapshot(13 * SECOND, machine(5100, 10, 4110, 20),
                5 * SECOND, List.of(new CpuSnapshot.NodeTicks(100, 620)), 22, SECOND + 600_000_000L);

        CpuUsage sum = CpuUsage.between(FROM, TO).plus(CpuUsage.between(TO, third));
        CpuUsage whole = CpuUsage.between(FROM, third);

        assertEquals(whole.seconds(), sum.seconds(), 1e-9);
        assertEquals(whole.busyShare(), sum.busyShare(), 1e-9);
        assertEquals(whole.stealShare(), sum.stealShare(), 1e-9);
        assertEquals(whole.generatorCores(), sum.generatorCores(), 1e-9);
        assertEquals(whole.brokerCores(), sum.brokerCores(), 1e-9);
        assertEquals(whole.busyShareOf(CpuList.parse("0")), sum.busyShareOf(CpuList.parse("0")), 1e-9);
    }
}
