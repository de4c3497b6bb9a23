package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.cpu.CpuPlacement;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;

/** What a run records of the CPUs, from a watch whose figures never change, on the fake clock. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadRunCpuTest {

    private static final CpuPlacement SHARED = new CpuPlacement(CpuList.parse("0-1"), CpuList.parse("0-1"));
    private static final CpuPlacement APART = new CpuPlacement(CpuList.parse("1"), CpuList.parse("0"));

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);

    private RunResult run(double busy, double generator, double broker, CpuPlacement placement) throws Exception {
        return run(RunContext.NONE, busy, generator, broker, placement);
    }

    private RunResult run(RunContext context, double busy, double generator, double broker, CpuPlacement placement)
            throws Exception {
        return FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ofSeconds(1), Duration.ofSeconds(2)),
                context.withCpuWatch(new SteadyCpuWatch(clock, busy, generator, broker, placement)),
                new InMemorySystem(clock), clock, new PrintStream(out, true, StandardCharsets.UTF_8)).execute();
    }

    @Test
    void aRunSharingBusyCoresWithTheBrokerSaysSoEverywhere() throws Exception {
        RunResult r = run(1.0, 1.25, 0.75, SHARED);

        String warning = "cpu contention: the load generator and the broker shared CPUs 0-1 and kept them 100% busy "
                + "(load generator 1.25 cores, broker 0.75): latency includes each one's waits for a core; pin them apart "
                + "(broker-cpus, cpus) and compare";
        assertEquals(List.of(warning), cpuWarnings(r));
        assertEquals(true, r.loadGenerator().get("bottleneckSuspected"));
        assertTrue(reasons(r).contains("cores shared with the broker"), reasons(r).toString());
        assertEquals(true, r.cpu().get("contention"));
        assertEquals("0-1", r.cpu().get("sharedCpus"));
        assertEquals(2.0, (Double) r.cpu().get("seconds"), 0.01, "the measured window, not the warm-up");
        String summary = out.toString(StandardCharsets.UTF_8);
        assertTrue(summary.contains("  cpu over the measured 2.0 s: machine 100% busy of 2 cores (steal 0%); load generator "
                + "1.25 cores, broker 0.75, interrupts 0.00, other processes 0.00\n"), summary);
        assertTrue(summary.contains("  warning: " + warning + "\n"), summary);
    }

    /** The command line gives its flags (bench-all's CpuContentionWarningTest); any other caller its own names. */
    @Test
    void theWarningsNameSettingsAsTheRunsContextSays() throws Exception {
        SettingNames quoted = setting -> "'" + setting.key() + "'";
        RunResult r = run(RunContext.NONE.withSettingNames(quoted), 1.0, 1.25, 0.75, SHARED);

        assertTrue(cpuWarnings(r).get(0).endsWith("pin them apart ('broker-cpus', 'cpus') and compare"),
                cpuWarnings(r).toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("pin them apart ('broker-cpus', 'cpus') and compare\n"));
    }

    @Test
    void eachSecondsUseIsInIntervalsCsvAndTheIntervalLog() throws Exception {
        run(1.0, 1.25, 0.75, SHARED);

        List<String> csv = Files.readAllLines(dir.resolve("intervals.csv"));
        assertTrue(csv.get(1).endsWith(",latencyMaxMs,cpuBusyShare,cpuStealShare,generatorCores,brokerCores"), csv.get(1));
        assertTrue(csv.get(3).endsWith(",1.000,0.000,1.250,0.750"), csv.get(3));
        List<String> comments = Files.readAllLines(dir.resolve("latency.hlog")).stream()
                .filter(l -> l.startsWith("#cpu ")).toList();
        assertEquals("#cpu 1.000-2.000 s: machine 100% busy of 2 cores (steal 0%); load generator 1.25 cores, broker 0.75, "
                + "interrupts 0.00, other processes 0.00", comments.get(1));
        assertEquals(csv.size() - 2, comments.size(), "a comment for each row");
    }

    @Test
    void theSameUseOnCoresApartIsTheSystemsOwn() throws Exception {
        RunResult r = run(0.95, 0.95, 0.95, APART);

        assertEquals(List.of(), cpuWarnings(r));
        assertFalse(reasons(r).contains("cores shared with the broker"), reasons(r).toString());
        assertEquals(false, r.cpu().get("contention"));
        assertNull(r.cpu().get("sharedCpus"));
    }

    /**
     * The warnings about the CPUs only: the load generator's own verdict on its cores (used up, or
     * in GC) reads the real CPU time of this JVM, which a fake-clock run of milliseconds may well
     * keep busy.
     */
    private static List<String> cpuWarnings(RunResult r) {
        return r.warnings().stream().filter(w -> w.startsWith(CpuContention.CONTENTION)
                || w.startsWith(CpuContention.BUSY_MACHINE)).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<String> reasons(RunResult r) {
        return (List<String>) r.loadGenerator().get("bottleneckReasons");
    }

    @Test
    void aRunWatchingNothingRecordsNoCpuFigures() throws Exception {
        RunResult r = FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)),
                new InMemorySystem(clock), clock, new PrintStream(out, true, StandardCharsets.UTF_8)).execute();

        assertNull(r.cpu());
        assertTrue(Files.readAllLines(dir.resolve("intervals.csv")).get(2).endsWith(",,,,"));
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("cpu over"));
    }
}
