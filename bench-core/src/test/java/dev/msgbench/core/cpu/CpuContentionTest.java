package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.SettingNames;

class CpuContentionTest {

    private static final CpuPlacement SHARED = new CpuPlacement(CpuList.parse("0-1"), CpuList.parse("0-1"));
    private static final CpuPlacement APART = new CpuPlacement(CpuList.parse("1"), CpuList.parse("0"));

    /** Two CPUs busy {@code busy} each; the load generator, its spinning, the broker and others in cores. */
    private static CpuUsage usage(double busy, double generator, double spinning, Double broker, double steal) {
        double others = Math.max(0, 2 * busy - generator - (broker == null ? 0 : broker));
        return new CpuUsage(8, 2, busy, steal, Map.of(0, busy, 1, busy), generator, spinning, broker,
                broker == null ? List.of() : List.of(broker), 0.0, others);
    }

    /** Settings by core's own names: the command line's flags are bench-all's (CpuContentionWarningTest). */
    private static CpuContention judge(CpuUsage usage, List<CpuUsage> seconds, CpuPlacement placement, long spinWindowNanos) {
        return CpuContention.judge(usage, seconds, placement, spinWindowNanos, SettingNames.KEYS);
    }

    @Test
    void sharingCoresThatBothKeptBusyIsTheLoadGeneratorsDoing() {
        CpuContention c = judge(usage(0.97, 1.19, 0, 0.79, 0), List.of(), SHARED, 0);

        assertEquals(List.of("cpu contention: the load generator and the broker shared CPUs 0-1 and kept them 99% busy "
                + "(load generator 1.19 cores, broker 0.79): latency includes each one's waits for a core; pin them apart "
                + "(broker-cpus, cpus) and compare"), c.generatorWarnings());
        assertTrue(c.generatorDisturbed());
        assertEquals(List.of(), c.machineWarnings());
    }

    @Test
    void sharedCpusThatOtherProcessesFilledAreContentionToo() {
        // CI: the load generator and the broker pinned to CPU 0, a busy loop in the load generator, and the other
        // test JVM's processes running on both CPUs took part of CPU 0
        CpuPlacement one = new CpuPlacement(CpuList.parse("0"), CpuList.parse("0"));
        CpuUsage usage = new CpuUsage(8, 2, 0.65, 0.0, Map.of(0, 1.0, 1, 0.3), 0.53, 0, 0.03, List.of(0.03), 0.01, 0.73);

        CpuContention c = judge(usage, List.of(), one, 0);

        assertEquals(List.of("cpu contention: the load generator and the broker shared CPUs 0, which were 100% busy (load "
                + "generator 0.53 cores, broker 0.03, other processes the rest): latency includes each one's waits for a "
                + "core; pin them apart (broker-cpus, cpus) and compare"), c.generatorWarnings());
        assertTrue(c.generatorDisturbed());
    }

    @Test
    void sharedCpusOtherProcessesFilledWhileTheLoadGeneratorIdledAreTheMachinesDoing() {
        CpuPlacement one = new CpuPlacement(CpuList.parse("0"), CpuList.parse("0"));
        CpuUsage usage = new CpuUsage(8, 2, 0.95, 0.0, Map.of(0, 1.0, 1, 0.9), 0.05, 0, 0.03, List.of(0.03), 0.01, 1.8);

        CpuContention c = judge(usage, List.of(), one, 0);

        assertFalse(c.generatorDisturbed(), c.warnings().toString());
        assertEquals(1, c.machineWarnings().size(), c.warnings().toString());
    }

    @Test
    void aFewSaturatedSecondsInAWindowWhoseMeanIsNotAreContentionToo() {
        // two JVMs compiling in the first measured seconds of a warm-up too short for them
        List<CpuUsage> seconds = List.of(usage(0.97, 1.11, 0, 0.85, 0), usage(0.96, 1.0, 0, 0.9, 0),
                usage(0.5, 0.5, 0, 0.5, 0), usage(0.5, 0.5, 0, 0.5, 0), usage(0.5, 0.5, 0, 0.5, 0));
        CpuContention c = judge(usage(0.7, 0.72, 0, 0.66, 0), seconds, SHARED, 0);

        assertEquals(List.of("cpu contention: the load generator and the broker shared CPUs 0-1 and kept them 90% busy or "
                + "more in 2 of 5 measured seconds (98% at most; 69% over the window: load generator 0.72 cores, broker "
                + "0.66): latency in those seconds includes each one's waits for a core; warm up longer, or pin them apart "
                + "(broker-cpus, cpus) and compare"), c.warnings());
        assertEquals(2, c.contendedSeconds());
    }

    @Test
    void oneSaturatedSecondOfALongWindowIsNoContention() {
        List<CpuUsage> seconds = new ArrayList<>(List.of(usage(0.97, 1.1, 0, 0.85, 0)));
        for (int i = 0; i < 29; i++) {
            seconds.add(usage(0.5, 0.5, 0, 0.5, 0));
        }

        assertEquals(List.of(), judge(usage(0.52, 0.52, 0, 0.51, 0), seconds, SHARED, 0).warnings());
    }

    @Test
    void theSameUseOnCpusApartIsNoContention() {
        CpuContention c = judge(usage(0.97, 0.98, 0, 0.96, 0), List.of(), APART, 80_000);

        assertEquals(List.of(), c.warnings());
        assertFalse(c.generatorDisturbed());
        assertNull(c.describe().get("sharedCpus"));
    }

    @Test
    void spinningOnTheBrokersCpusIsNamedEvenWhenTheyWereNotAllBusy() {
        CpuContention c = judge(usage(0.84, 1.25, 0.80, 0.44, 0), List.of(), SHARED, 80_000);

        assertEquals(List.of("cpu contention: the producers spun 0.80 cores (spin-window 80us) on CPUs the broker runs on "
                + "(0-1), 84% busy: the broker waited for the cores they held; give spin-window 0 (or auto), or pin them "
                + "apart"), c.warnings());
    }

    @Test
    void spinningAtALowRateTakesNothing() {
        assertEquals(List.of(), judge(usage(0.06, 0.25, 0.08, 0.10, 0), List.of(), SHARED, 80_000).warnings());
    }

    @Test
    void otherProcessesThatKeptTheMachineBusyAreNamedButAreNotTheLoadGeneratorsDoing() {
        CpuContention c = judge(usage(0.95, 0.3, 0, 0.2, 0), List.of(), APART, 80_000);

        assertEquals(List.of("busy machine: other processes used 1.40 cores and the machine's 2 CPUs were 95% busy: latency "
                + "includes waits for a core"), c.machineWarnings());
        assertFalse(c.generatorDisturbed());
    }

    @Test
    void stealIsTheHypervisorsDoing() {
        CpuContention c = judge(usage(0.3, 0.3, 0, 0.2, 0.08), List.of(), APART, 0);

        assertEquals(List.of("busy machine: the hypervisor took 8% of the CPUs' time (steal): latency includes it"),
                c.machineWarnings());
    }

    @Test
    void withoutALocalBrokerOnlyTheMachineIsJudged() {
        CpuPlacement remote = new CpuPlacement(CpuList.parse("0-1"), null);
        CpuContention c = judge(usage(0.97, 1.94, 1.5, null, 0), List.of(), remote, 80_000);

        assertEquals(List.of(), c.warnings(), "spinning where no broker runs takes nothing it needs");
        assertEquals("0-1", c.describe().get("loadGeneratorCpus"));
        assertNull(c.describe().get("brokerCpus"));
    }

    @Test
    void resultJsonGetsTheFiguresEachSidesCpusAndTheVerdicts() {
        Map<String, Object> d = judge(usage(0.97, 1.19, 0, 0.79, 0), List.of(), SHARED, 0).describe();

        assertEquals(List.of("summary", "seconds", "machine", "loadGenerator", "broker", "othersCores", "loadGeneratorCpus",
                "brokerCpus", "sharedCpus", "contendedSeconds", "contention", "busyMachine"), List.copyOf(d.keySet()));
        assertEquals("0-1", d.get("sharedCpus"));
        assertEquals(true, d.get("contention"));
        assertEquals(false, d.get("busyMachine"));
    }
}
