package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.sweep.SweepCommand;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * run and sweep take each cell's outcome from their runner, in memory: with a runner that writes
 * no file, what they print and write can only have come from there. A failed cell does not stop
 * them; an interrupted one does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InMemoryOutcomesTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private Path workload() throws Exception {
        Path file = dir.resolve("scripted.yaml");
        Files.writeString(file, """
                name: scripted
                defaults: {warmup: 0s, duration: 1s, size: 256B}
                cells:
                  - {label: "first", system: loopback, rate: 100}
                  - {label: "second", system: loopback, rate: 200}
                  - {label: "third", system: loopback, rate: 300}
                table:
                  columns: [p99, achieved-rate, sent, lost]
                """);
        return file;
    }

    @Test
    void runShowsTheResultsItsRunnerGaveAndGoesOnAfterAFailedCell() throws Exception {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> ScriptedCellRunner.rate(cell) == 200
                ? new CellOutcome(ExitCode.USAGE, null, "no broker answered")
                : CellOutcome.of(ScriptedCellRunner.complete(ScriptedCellRunner.rate(cell), ScriptedCellRunner.rate(cell),
                        4242, ScriptedCellRunner.rate(cell) / 100)));
        Path out = dir.resolve("out");

        CliRun run = CliRun.with(runner, "run", workload().toString(), "--output", out.toString());

        assertEquals(1, run.exitCode, run.toString());
        assertEquals("cell 2 (second) failed with exit code 2; going on with the next" + NL, run.err);
        assertEquals(List.of(out.resolve("01-first"), out.resolve("02-second"), out.resolve("03-third")),
                runner.calls().stream().map(ScriptedCellRunner.Call::outputDir).toList());
        List<String> table = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals("#  cell    p99 ms  achieved msg/s   sent  lost  status", table.get(4));
        assertEquals("1  first    1.000             100  4,242     0  ok", table.get(5));
        assertEquals("2  second       -               -      -     -  FAILED (exit 2, nothing measured)", table.get(6));
        assertEquals("3  third    3.000             300  4,242     0  ok", table.get(7));
        assertTrue(Files.notExists(out.resolve("01-first").resolve(ResultFiles.RESULT_JSON)), "the runner wrote nothing");
        JsonNode summary = ResultFiles.json().readTree(out.resolve("summary.json").toFile());
        assertEquals(2, summary.get("cells").get(1).get("repetitions").get(0).get("exitCode").asInt());
    }

    @Test
    void anInterruptedCellStopsTheRunAndTheCellsAfterItAreNotRun() throws Exception {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> CellOutcome.of(ScriptedCellRunner.result(
                ScriptedCellRunner.rate(cell) == 200 ? RunStatus.INTERRUPTED : RunStatus.COMPLETE, null,
                ScriptedCellRunner.rate(cell), ScriptedCellRunner.rate(cell), 10, 1)));
        Path out = dir.resolve("out");

        CliRun run = CliRun.with(runner, "run", workload().toString(), "--output", out.toString());

        assertEquals(ExitCode.INTERRUPTED.code(), run.exitCode, run.toString());
        assertEquals(2, runner.calls().size(), "the third cell is not started");
        List<String> table = Files.readAllLines(out.resolve("summary.txt"));
        assertTrue(table.get(6).endsWith("  interrupted"), table.get(6));
        assertTrue(table.get(7).endsWith("  not run"), table.get(7));
    }

    @Test
    void sweepWarmsUpRampsRepeatsMissesAndBisectsToAKneeJudgedByTheResultsItsRunnerGave() throws Exception {
        // latency grows with the rate: 1 ms at 1,000 msg/s, 8 ms at 8,000; so does the CPUs' use, contended from 6,000 on
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> CellOutcome.of(ScriptedCellRunner.withCpu(
                ScriptedCellRunner.complete(ScriptedCellRunner.rate(cell), ScriptedCellRunner.rate(cell), 1000,
                        ScriptedCellRunner.rate(cell) / 1000),
                ScriptedCellRunner.rate(cell) / 8000, ScriptedCellRunner.rate(cell) >= 6000)));

        CliRun run = CliRun.with(runner, "sweep", "--system", "loopback", "--objective", "p99<=5ms", "--start-rate",
                "1000", "--max-rate", "16000", "--duration", "1s", "--warmup", "0s", "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(String.join(NL,
                " run  system          phase      target msg/s  achieved msg/s        p99 ms      lost  cpu busy          result",
                "   1  loopback        warm-up           1,000           1,000         1.000         0  13%               pass (not judged)",
                "   2  loopback        ramp              1,000           1,000         1.000         0  13%               pass",
                "   3  loopback        ramp              2,000           2,000         2.000         0  25%               pass",
                "   4  loopback        ramp              4,000           4,000         4.000         0  50%               pass",
                "   5  loopback        ramp              8,000           8,000         8.000         0  100% contention   objective missed (p99 = 8.000 ms)",
                "   6  loopback        repeat            8,000           8,000         8.000         0  100% contention   objective missed (p99 = 8.000 ms)",
                "   7  loopback        bisect            6,000           6,000         6.000         0  75% contention    objective missed (p99 = 6.000 ms)",
                "   8  loopback        repeat            6,000           6,000         6.000         0  75% contention    objective missed (p99 = 6.000 ms)",
                "   9  loopback        bisect            5,000           5,000         5.000         0  63%               pass",
                "  10  loopback        bisect            5,500           5,500         5.500         0  69%               objective missed (p99 = 5.500 ms)",
                "  11  loopback        repeat            5,500           5,500         5.500         0  69%               objective missed (p99 = 5.500 ms)",
                "  12  loopback        bisect            5,250           5,250         5.250         0  66%               objective missed (p99 = 5.250 ms)",
                "  13  loopback        repeat            5,250           5,250         5.250         0  66%               objective missed (p99 = 5.250 ms)",
                "  14  loopback        repeat            5,000           5,000         5.000         0  63%               pass",
                "  15  loopback        repeat            5,000           5,000         5.000         0  63%               pass",
                "",
                "loopback: knee 5,000 msg/s (p99 <= 5 ms), passed 3 of 3 runs; p99 over them: min 5.000, median 5.000, max "
                        + "5.000 ms; the lowest rate above it that missed: 5,250 msg/s (--resolution 5%): objective missed "
                        + "(p99 = 5.250 ms)",
                "(cpu busy: the machine's CPUs over a run's measured window; contention: the load generator and the broker "
                        + "competed for cores, busy machine: other processes or the hypervisor took them; such a step measured "
                        + "the machine as much as the system: see its warnings)")),
                run.out);
        assertTrue(run.out.contains("sweep plan: 1 warm-up run at 1,000 msg/s, not judged; then up to 5 steps from 1,000 "
                + "to 16,000 msg/s (x2); then bisection between the last pass and the first miss to 5% (at most 5 steps); "
                + "a step that misses runs again, up to 3 runs, 2 of which must pass; the knee (the highest rate that passed "
                + "its repeats) is run 3 times in all. At most 33 runs of 1s each: at most 33s, plus a broker start per run."
                + NL), run.out);
        assertEquals(15, runner.calls().size(), "no run after the knee's repeats");
        assertEquals(dir.resolve("01-loopback-1000-warm-up"), runner.calls().get(0).outputDir());
        assertEquals(dir.resolve("05-loopback-8000"), runner.calls().get(4).outputDir());
        JsonNode knee = ResultFiles.json().readTree(dir.resolve(SweepCommand.JSON).toFile()).get("knee").get("loopback");
        assertEquals(5000, knee.get("rate").asDouble());
        assertTrue(knee.get("confirmed").asBoolean());
        assertEquals("bracketed", knee.get("end").asText());
        assertEquals(3, knee.get("p99Ms").size());
        assertEquals(5.0, knee.get("median").asDouble());
        assertTrue(Files.notExists(dir.resolve("05-loopback-8000")), "the runner wrote nothing");
    }

    @Test
    void aFailedRunStopsTheSweepShowingWhatItMeasuredAndWhy() throws Exception {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> ScriptedCellRunner.rate(cell) < 2000
                ? CellOutcome.of(ScriptedCellRunner.complete(1000, 1000, 1000, 1))
                : new CellOutcome(ExitCode.RUN_FAILED, ScriptedCellRunner.result(RunStatus.FAILED, "the broker went away",
                        2000, 1500, 1500, 1), "the broker went away"));

        CliRun run = CliRun.with(runner, "sweep", "--system", "loopback", "--objective", "p99<=5ms", "--start-rate",
                "1000", "--duration", "1s", "--warmup", "0s", "--output", dir.toString());

        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.out.contains(
                "   3  loopback        ramp              2,000           1,500         1.000         0  -                 FAILED (exit 1: the "
                        + "broker went away)"),
                run.out);
        assertTrue(run.out.contains("loopback: knee (not confirmed) 1,000 msg/s (p99 <= 5 ms), passed 1 of 1 run; p99 over "
                + "them: min 1.000, median 1.000, max 1.000 ms; the search stopped at a run that failed: FAILED (exit 1: the "
                + "broker went away)"), run.out);
        assertEquals(3, runner.calls().size(), "no run after the failed one");
        JsonNode json = ResultFiles.json().readTree(dir.resolve(SweepCommand.JSON).toFile());
        assertEquals(1, json.get("steps").get(2).get("exitCode").asInt());
        assertEquals(1000, json.get("highestSustainableRate").get("loopback").asDouble());
    }
}
