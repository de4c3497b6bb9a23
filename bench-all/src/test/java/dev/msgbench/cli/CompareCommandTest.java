package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.cli.report.Fixtures;
import dev.msgbench.core.result.ResultFiles;

/** compare BASE NEW: the table, and the exit code a CI job acts on. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompareCommandTest {

    @TempDir
    static Path dir;

    static Path base;
    static Path next;
    static Path repeats;

    @BeforeAll
    static void writeRuns() throws Exception {
        base = Fixtures.run(dir.resolve("base"), "nats", 500);
        next = Fixtures.run(dir.resolve("new"), "nats", 500);
        // known values, so that the table's text is exact; the runs themselves gave the files
        Fixtures.editResult(base, json -> known(json, 1.0, 0));
        Fixtures.editResult(next, json -> known(json, 1.2, 3));
        Fixtures.run(dir.resolve("repeats/1"), "nats", 500);
        Fixtures.run(dir.resolve("repeats/2"), "nats", 500);
        repeats = dir.resolve("repeats");
    }

    /** Latencies of BASE times {@code factor}, {@code lost} messages lost. */
    private static void known(ObjectNode json, double factor, long lost) {
        ObjectNode lat = ((ObjectNode) json.get("latenciesMs")).putObject("latency");
        Map.of("p50", 1.0, "p75", 1.25, "p90", 1.5, "p99", 2.0, "p99.9", 3.0, "p99.99", 4.0, "p99.999", 5.0,
                "p99.9999", 6.0, "max", 7.0, "mean", 1.1).forEach((k, v) -> lat.put(k, v * factor));
        lat.put("count", 300.0);
        ObjectNode rates = (ObjectNode) json.get("rates");
        rates.put("targetMsgsPerSec", 200.0);
        rates.put("achievedMsgsPerSec", 200.0);
        rates.put("receivedMsgsPerSec", 200.0 / factor);
        ObjectNode counts = (ObjectNode) json.get("counts");
        counts.put("sent", 400);
        // one of NEW's lost messages had been acknowledged
        counts.put("acknowledgedLost", Math.min(lost, 1));
        counts.put("unacknowledgedLost", lost - Math.min(lost, 1));
    }

    @Test
    void printsBothSidesWithRatios() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString());

        assertEquals(0, r.exitCode, r.toString());
        assertEquals(String.join("\n",
                "BASE: " + base + " (nats 256B @200/s)",
                "NEW:  " + next + " (nats 256B @200/s)",
                "                            BASE            NEW  NEW/BASE",
                "target rate/s              200.0          200.0      1.00",
                "sent rate/s                200.0          200.0      1.00",
                "received rate/s            200.0          166.7      0.83",
                "p50 ms                     1.000          1.200      1.20",
                "p75 ms                     1.250          1.500      1.20",
                "p90 ms                     1.500          1.800      1.20",
                "p99 ms                     2.000          2.400      1.20",
                "p99.9 ms                   3.000          3.600      1.20",
                "p99.99 ms                  4.000          4.800      1.20",
                "p99.999 ms                 5.000          6.000      1.20",
                "p99.9999 ms                6.000          7.200      1.20",
                "max ms                     7.000          8.400      1.20",
                "mean ms                    1.100          1.320      1.20",
                "sent                         400            400      1.00",
                "lost                           0              3       inf",
                "acknowledged lost              0              1       inf",
                "no limits given (--max-regression): nothing checked",
                ""), r.out);
    }

    @Test
    void exitsNonZeroWhenNewIsWorseBeyondTheLimit() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString(), "--max-regression", "p99.9=10%");

        assertEquals(ExitCode.REGRESSED.code(), r.exitCode, r.toString());
        assertTrue(r.out.endsWith("REGRESSION: p99.9 rose from 3.000 to 3.600 ms (+20.0%), more than the 10% allowed\n"),
                r.out);
    }

    @Test
    void passesWhenWorseOnlyWithinTheLimit() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString(), "--max-regression", "p99.9=25%",
                "--max-regression", "lost=3");

        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.out.endsWith("ok: no regression beyond p99.9=25%, lost=3\n"), r.out);
    }

    @Test
    void lostMessagesAndFallingRatesAreRegressionsToo() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString(), "--max-regression", "lost=0",
                "--max-regression", "received-rate=5%");

        assertEquals(ExitCode.REGRESSED.code(), r.exitCode, r.toString());
        assertTrue(r.out.contains("REGRESSION: lost rose from 0 to 3 messages, more than the 0 more allowed\n"), r.out);
        assertTrue(r.out.contains("REGRESSION: received-rate fell from 200.0 to 166.7 msg/s (-16.7%), more than the 5% allowed\n"),
                r.out);
    }

    @Test
    void aBetterNewPasses() {
        CliRun r = CliRun.of("compare", next.toString(), base.toString(), "--max-regression", "p99.9=0%");

        assertEquals(0, r.exitCode, r.toString());
    }

    @Test
    void repeatedRunsAreAddedAsHistogramsNotAveraged() throws Exception {
        CliRun r = CliRun.of("compare", repeats.toString(), repeats.toString(), "--max-regression", "p99=0%");

        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.out.startsWith("BASE: " + repeats + " (2 runs, histograms added)\n"), r.out);
        long measured = 0;
        for (String run : new String[] {"1", "2"}) {
            measured += ResultFiles.readResult(repeats.resolve(run)).latenciesMs().latency().get("count").longValue();
        }
        // the intervals after the warm-up hold the measured messages (plus any warm-up stragglers)
        String countLine = r.out.lines().filter(l -> l.startsWith("sent  ")).findFirst().orElseThrow();
        assertTrue(countLine.contains("800"), countLine);
        assertTrue(measured >= 500, "two runs of 1.5 s at 200/s measure about 600: " + measured);
    }

    @Test
    void runsFromAnotherMachineAndJvmAreNamedBelowTheTable() throws Exception {
        Path elsewhere = Fixtures.run(dir.resolve("elsewhere"), "nats", 500);
        Fixtures.editResult(elsewhere, json -> {
            ObjectNode env = (ObjectNode) json.get("environment");
            env.put("cpuModel", "Test CPU 9000");
            env.put("cores", 64);
            env.putArray("jvmFlags").add("-XX:+UseZGC");
        });
        Map<String, Object> here = ResultFiles.readResult(base).environment();

        CliRun r = CliRun.of("compare", base.toString(), elsewhere.toString());

        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.out.contains("\nnote: BASE and NEW ran on different machines (cpuModel " + here.get("cpuModel")
                + " | Test CPU 9000; cores " + here.get("cores") + " | 64): their figures are not comparable;"
                + " compare runs made side by side on one machine\n"), r.out);
        assertTrue(r.out.contains("\nnote: BASE and NEW ran in different JVMs (jvmFlags " + here.get("jvmFlags")
                + " | [-XX:+UseZGC])\n"), r.out);
    }

    @Test
    void aResultWrittenBeforeTheProcessorWasRecordedIsNoOtherMachine() throws Exception {
        Path older = Fixtures.run(dir.resolve("older"), "nats", 500);
        Fixtures.editResult(older, json -> ((ObjectNode) json.get("environment")).remove(List.of("cpuModel", "clockSource")));

        CliRun r = CliRun.of("compare", older.toString(), base.toString());

        assertEquals(0, r.exitCode, r.toString());
        assertFalse(r.out.contains("note:"), r.out);
    }

    @Test
    void aBadLimitIsOneLineNamingTheFlag() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString(), "--max-regression", "p99.9=10");

        assertEquals(ExitCode.USAGE.code(), r.exitCode, r.toString());
        assertEquals("error: --max-regression p99.9 must be a percentage >= 0, e.g. p99.9=10%, got 'p99.9=10'\n", r.err);
    }

    @Test
    void anUnknownMetricIsRefused() {
        CliRun r = CliRun.of("compare", base.toString(), next.toString(), "--max-regression", "p42=10%");

        assertEquals(ExitCode.USAGE.code(), r.exitCode, r.toString());
        assertEquals("error: --max-regression must be METRIC=LIMIT with METRIC one of p50, p75, p90, p99, p99.9, "
                + "p99.99, p99.999, p99.9999, max, mean, sent-rate, received-rate, lost, got 'p42=10%'\n", r.err);
    }

    @Test
    void aFolderWithoutResultsIsRefused() {
        CliRun r = CliRun.of("compare", dir.resolve("nothing").toString(), next.toString());

        assertEquals(ExitCode.USAGE.code(), r.exitCode, r.toString());
        assertEquals("error: compare BASE must be a results folder, got '" + dir.resolve("nothing")
                + "', which is not a folder\n", r.err);
    }
}
