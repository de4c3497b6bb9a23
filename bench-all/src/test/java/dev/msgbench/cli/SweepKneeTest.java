package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.sweep.SweepCommand;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** sweep's knee flags: the plan said up front, --objective none, repeats, and one real run on the loopback system. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SweepKneeTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void aDryRunSaysTheMostRunsAndTimeAndRunsNothing() {
        ScriptedCellRunner nothing = ScriptedCellRunner.failingIfRun();

        CliRun run = CliRun.with(nothing, "sweep", "--system", "loopback,nats", "--objective", "p99<=5ms", "--start-rate",
                "1000", "--max-rate", "8000", "--duration", "10s", "--warmup", "2s", "--resolution", "10%", "--dry-run",
                "--output", dir.resolve("out").toString());

        assertEquals(0, run.exitCode, run.toString());
        assertEquals("sweep plan: 1 warm-up run at 1,000 msg/s, not judged; then up to 4 steps from 1,000 to 8,000 msg/s "
                + "(x2); then bisection between the last pass and the first miss to 10% (at most 4 steps); a step that "
                + "misses runs again, up to 3 runs, 2 of which must pass; the knee (the highest rate that passed its repeats) "
                + "is run 3 times in all. At most 54 runs (27 per system) of 12s each: at most 10m 48s, plus a broker start "
                + "per run." + NL + "nothing run (--dry-run)" + NL, run.out);
        assertTrue(Files.notExists(dir.resolve("out")));
    }

    @Test
    void aDryRunWithOneRepeatSaysAMissIsNotRunAgain() {
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), "sweep", "--system", "loopback", "--objective", "none",
                "--max-rate", "1000", "--warm-up-runs", "0", "--repeats", "1", "--must-pass", "1", "--duration", "1s",
                "--warmup", "0s", "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("sweep plan: no warm-up run; then up to 1 step from 1,000 to 1,000 msg/s (x2); then "
                + "bisection between the last pass and the first miss to 5% (at most 0 steps); a step that misses is not "
                + "run again; the knee (the highest rate that passed its repeats) is run 1 time in all. At most 1 run of 1s "
                + "each"), run.out);
    }

    @Test
    void withoutALatencyObjectiveAStepPassesOnItsRateAndLossesAlone() throws Exception {
        // the system keeps up to 3,000 msg/s, whatever its latency
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> {
            double rate = ScriptedCellRunner.rate(cell);
            return CellOutcome.of(ScriptedCellRunner.complete(rate, Math.min(rate, 3000), 1000, 500));
        });

        CliRun run = CliRun.with(runner, "sweep", "--system", "loopback", "--objective", "none", "--start-rate", "1000",
                "--max-rate", "100000", "--repeats", "1", "--must-pass", "1", "--warm-up-runs", "0", "--resolution", "10%",
                "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("loopback: knee 3,000 msg/s (none), passed 1 of 1 run; p99 over them: min 500.000, "
                + "median 500.000, max 500.000 ms; the lowest rate above it that missed: 3,250 msg/s (--resolution 10%): "
                + "target rate missed (achieved 3,000 of 3,250 msg/s)" + NL), run.out);
        assertTrue(run.out.contains("(the knee is the highest rate that passed 1 of 1 runs; a run passes when the target "
                + "rate is met and nothing is lost)"), run.out);
        JsonNode json = ResultFiles.json().readTree(dir.resolve(SweepCommand.JSON).toFile());
        assertTrue(json.get("objective").get("limitMs").isNull());
        assertEquals(3000, json.get("highestSustainableRate").get("loopback").asDouble());
    }

    @Test
    void runsAtOneRateThatBothPassAndMissSayTheKneeIsNotRepeatableAndWhatWouldSettleIt() {
        // at 2,000 msg/s the runs alternate between 1 ms and 5 ms against p99 <= 2 ms; below pass, above miss
        AtomicInteger at2000 = new AtomicInteger();
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> {
            double rate = ScriptedCellRunner.rate(cell);
            double p99 = rate <= 1000 ? 1 : rate <= 2000 ? (at2000.incrementAndGet() % 2 == 1 ? 1 : 5) : 10;
            return CellOutcome.of(ScriptedCellRunner.complete(rate, rate, 1000, p99));
        });

        CliRun run = CliRun.with(runner, "sweep", "--system", "loopback", "--objective", "p99<=2ms", "--start-rate", "1000",
                "--max-rate", "4000", "--warm-up-runs", "0", "--resolution", "2000", "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("loopback: knee 2,000 msg/s (p99 <= 2 ms), passed 2 of 3 runs"), run.out);
        assertTrue(run.out.contains("loopback: the knee is not repeatable at this run length: at 2,000 msg/s 2 of 3 runs "
                + "passed (p99 from 1.000 to 5.000 ms against p99 <= 2 ms); longer runs (a longer --duration) or more "
                + "repeats (--repeats 5 --must-pass 4) would settle it" + NL), run.out);
    }

    @Test
    @TakesSeconds
    void aSweepOfTheLoopbackSystemFindsItsKneeAtTheMaximumRateAndWritesEveryRun() throws Exception {
        CliRun run = CliRun.of("sweep", "--system", "loopback", "--objective", "p99<=1s", "--start-rate", "300",
                "--max-rate", "300", "--duration", "500ms", "--warmup", "0s", "--repeats", "2", "--must-pass", "1",
                "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("loopback: knee 300 msg/s (p99 <= 1 s), passed 2 of 2 runs; p99 over them: min "),
                run.out);
        assertTrue(run.out.contains(" (--max-rate reached; the system may sustain more)" + NL), run.out);
        for (String folder : new String[] {"01-loopback-300-warm-up", "02-loopback-300", "03-loopback-300"}) {
            assertTrue(Files.isRegularFile(dir.resolve(folder).resolve(ResultFiles.RESULT_JSON)), folder);
        }
        JsonNode knee = ResultFiles.json().readTree(dir.resolve(SweepCommand.JSON).toFile()).get("knee").get("loopback");
        assertEquals("max-rate", knee.get("end").asText());
        assertEquals(2, knee.get("p99Ms").size());
        assertTrue(Files.readString(dir.resolve(SweepCommand.TEXT)).contains("loopback: knee 300 msg/s"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--repeats 0|error: --repeats must be at least 1, got 0 (see java -jar bench-all.jar sweep --help)",
            "--repeats 3 --must-pass 4|error: --must-pass must be from 1 to --repeats (3), got 4 (see java -jar bench-all.jar sweep --help)",
            "--warm-up-runs -1|error: --warm-up-runs must be 0 or more, got -1 (see java -jar bench-all.jar sweep --help)",
            "--resolution 0%|error: Invalid value for option '--resolution': must be a share of the rate (5%, above 0 and below 100) or msg/s (500, above 0), got '0%' (see java -jar bench-all.jar sweep --help)",
            "--resolution five|error: Invalid value for option '--resolution': must be a share of the rate (5%, above 0 and below 100) or msg/s (500, above 0), got 'five' (see java -jar bench-all.jar sweep --help)",
    })
    void badKneeFlagsAreRefusedBeforeAnyRun(String args, String expected) {
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), ("sweep --system loopback --objective p99<=1ms " + args
                + " --output " + dir.resolve("out")).split(" "));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + NL, run.err);
        assertTrue(Files.notExists(dir.resolve("out")), "nothing written");
    }
}
