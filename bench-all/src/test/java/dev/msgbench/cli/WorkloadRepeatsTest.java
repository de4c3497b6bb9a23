package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.core.result.ResultFiles;

/**
 * A workload's repeats and baseline: the keys read and refused, the cells' runs interleaved, each
 * cell's median run and spread and the verdicts against the baseline in the summary, with a
 * runner that answers from a script (nothing runs).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadRepeatsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    /** Two loopback cells told apart by their rate, with the given top-level keys. */
    private Path workload(String keys) throws Exception {
        Path file = dir.resolve("repeats.yaml");
        Files.writeString(file, "name: repeats\n" + keys + """
                defaults: {warmup: 0s, duration: 1s, size: 256B, system: loopback}
                cells:
                  - {label: "base", rate: 100}
                  - {label: "slow", rate: 200}
                table:
                  columns: [p99, achieved-rate, sent]
                """);
        return file;
    }

    /** Each run of a cell a millisecond slower than the last: base 1, 2, 3 ..., slow 10, 11, 12 ... */
    private static ScriptedCellRunner slowingRunner() {
        Map<Double, Integer> runs = new HashMap<>();
        return new ScriptedCellRunner(cell -> {
            double rate = ScriptedCellRunner.rate(cell);
            int run = runs.merge(rate, 1, Integer::sum);
            double latencyMs = (rate == 100 ? 0 : 9) + run;
            return CellOutcome.of(ScriptedCellRunner.complete(rate, rate, 1000, latencyMs));
        });
    }

    private CliRun dryRun(String keys, String... flags) throws Exception {
        String[] args = new String[flags.length + 3];
        args[0] = "run";
        args[1] = workload(keys).toString();
        args[2] = "--dry-run";
        System.arraycopy(flags, 0, args, 3, flags.length);
        return CliRun.with(ScriptedCellRunner.failingIfRun(), args);
    }

    private String file() {
        return dir.resolve("repeats.yaml").toString();
    }

    @Test
    void theFileGivesRepeatsAndABaselineAndTheDryRunSaysSo() throws Exception {
        CliRun run = dryRun("repeats: 4\nbaseline: BASE\n");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(file() + ": 2 cells x 4 runs, interleaved, checked; nothing run (--dry-run)" + NL
                + "baseline: cell 1 (base), every other cell judged against it" + NL), run.out);
        assertTrue(run.out.contains("sending time: 8s, plus a broker start per run"), run.out);
    }

    @Test
    void repeatsBelowOneAreRefusedInTheFileAndOnTheCommandLine() throws Exception {
        CliRun file = dryRun("repeats: 0\n");
        assertEquals(2, file.exitCode, file.toString());
        assertEquals("error: " + file() + ":2: 'repeats' must be 1 to 1000, got 0" + NL, file.err);

        CliRun word = dryRun("repeats: many\n");
        assertEquals(2, word.exitCode, word.toString());
        assertEquals("error: " + file() + ":2: 'repeats' must be a whole number, got 'many'" + NL, word.err);

        CliRun flag = dryRun("", "--repeats", "0");
        assertEquals(2, flag.exitCode, flag.toString());
        assertEquals("error: --repeats must be at least 1, got 0 (see java -jar bench-all.jar run --help)" + NL, flag.err);
    }

    @Test
    void repeatsAndRepetitionsCannotBothBeAboveOne() throws Exception {
        CliRun file = dryRun("repetitions: 2\nrepeats: 3\n");
        assertEquals(2, file.exitCode, file.toString());
        assertEquals("error: " + file() + ":3: 'repeats' and 'repetitions' cannot both be above 1 (got 3 and 2): "
                + "repeats run the cells interleaved, for their spread and verdicts; repetitions back to back; give one"
                + NL, file.err);

        CliRun flag = dryRun("repetitions: 2\n", "--repeats", "3");
        assertEquals(2, flag.exitCode, flag.toString());
        assertEquals("error: repeats (3, interleaved) and repetitions (2, back to back) cannot both be above 1; give "
                + "--repetitions 1 or --repeats 1 (see java -jar bench-all.jar run --help)" + NL, flag.err);
        assertEquals(0, dryRun("repetitions: 2\n", "--repeats", "3", "--repetitions", "1").exitCode);
    }

    @Test
    void aBaselineThatNamesNoCellIsRefusedWithTheCells() throws Exception {
        CliRun file = dryRun("repeats: 4\nbaseline: fast\n");
        assertEquals(2, file.exitCode, file.toString());
        assertEquals("error: " + file() + ":3: 'baseline' 'fast' names no cell (cells: base; slow)" + NL, file.err);

        CliRun flag = dryRun("", "--baseline", "fast");
        assertEquals(2, flag.exitCode, flag.toString());
        assertEquals("error: --baseline 'fast' names no cell (cells: base; slow) (see java -jar bench-all.jar run --help)"
                + NL, flag.err);

        CliRun only = dryRun("baseline: base\n", "--only", "slow");
        assertEquals(2, only.exitCode, only.toString());
        assertEquals("error: " + file() + ":2: 'baseline' 'base' names no cell that --only picks (cells: slow)" + NL,
                only.err);
    }

    @Test
    void theCellsRunInterleavedEachRunInAFolderOfItsOwn() throws Exception {
        ScriptedCellRunner runner = slowingRunner();
        Path out = dir.resolve("out");
        CliRun run = CliRun.with(runner, "run", workload("repeats: 3\n").toString(), "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of(out.resolve("01-base/run-1"), out.resolve("02-slow/run-1"), out.resolve("01-base/run-2"),
                out.resolve("02-slow/run-2"), out.resolve("01-base/run-3"), out.resolve("02-slow/run-3")),
                runner.calls().stream().map(ScriptedCellRunner.Call::outputDir).toList());
        assertTrue(run.out.contains("=== cell 2 (2 of 2), run 3 of 3: slow"), run.out);
    }

    @Test
    void oneRepeatRunsAsBeforeIntoTheCellsOwnFolder() throws Exception {
        ScriptedCellRunner runner = slowingRunner();
        Path out = dir.resolve("out");
        CliRun run = CliRun.with(runner, "run", workload("repeats: 1\n").toString(), "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of(out.resolve("01-base"), out.resolve("02-slow")),
                runner.calls().stream().map(ScriptedCellRunner.Call::outputDir).toList());
        assertTrue(run.out.contains("=== cell 2 (2 of 2): slow"), run.out);
        JsonNode summary = ResultFiles.json().readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("repeats") == null, "summary.json as without the key");
        assertTrue(!run.out.contains("runs per cell"), run.out);
    }

    @Test
    void theSummaryShowsEachCellsMedianRunAndSpreadAndAVerdictPerFigureAgainstTheBaseline() throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.with(slowingRunner(), "run", workload("repeats: 4\nbaseline: base\n").toString(),
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        String text = Files.readString(out.resolve("summary.txt"));
        assertTrue(text.contains(String.join(NL,
                "4 runs per cell, interleaved; each figure: the median run [lowest..highest run] of the complete runs",
                "#  cell  runs complete                   p50 ms                   p99 ms                 p99.9 ms  "
                        + "                 max ms  achieved msg/s  received msg/s",
                "1  base         4 of 4     2.500 [1.000..4.000]     2.500 [1.000..4.000]     2.500 [1.000..4.000]  "
                        + "   2.500 [1.000..4.000]  100 [100..100]  100 [100..100]",
                "2  slow         4 of 4  11.500 [10.000..13.000]  11.500 [10.000..13.000]  11.500 [10.000..13.000]  "
                        + "11.500 [10.000..13.000]  200 [200..200]  200 [200..200]",
                "",
                "verdicts against cell 1 (base), by two-sided Mann-Whitney rank test over the runs, exact p, at 5%; a "
                        + "verdict needs 4 runs a side (3 a side cannot reach it: the smallest p is 0.100)",
                "#  cell                 p50 ms                 p99 ms               p99.9 ms                 max ms  "
                        + "        achieved msg/s          received msg/s",
                "2  slow  worse x4.60 (p=0.029)  worse x4.60 (p=0.029)  worse x4.60 (p=0.029)  worse x4.60 (p=0.029)  "
                        + "better x2.00 (p=0.029)  better x2.00 (p=0.029)",
                "",
                "  latency: ms from")), text);
        JsonNode summary = ResultFiles.json().readTree(out.resolve("summary.json").toFile());
        assertEquals(4, summary.get("repeats").asInt());
        assertEquals("base", summary.get("baseline").asText());
        JsonNode slow = summary.get("cells").get(1);
        assertEquals(11.5, slow.get("figures").get("p99 ms").get("median").asDouble());
        assertEquals(13.0, slow.get("figures").get("p99 ms").get("highest").asDouble());
        assertEquals(4, slow.get("figures").get("p99 ms").get("runs").size());
        assertEquals("worse x4.60 (p=0.029)", slow.get("verdicts").get("p99 ms").asText());
        assertTrue(summary.get("cells").get(0).get("verdicts") == null, "the baseline is not judged against itself");
    }

    @Test
    void fewerRepeatsThanTheRuleNeedsGiveTheSpreadAndNoVerdict() throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.with(slowingRunner(), "run", workload("repeats: 3\n").toString(), "--output", out.toString(),
                "--baseline", "base");

        assertEquals(0, run.exitCode, run.toString());
        String text = Files.readString(out.resolve("summary.txt"));
        assertTrue(text.contains("2  slow         3 of 3  11.000 [10.000..12.000]  11.000 [10.000..12.000]"), text);
        assertTrue(text.contains(String.join(NL,
                "2  slow  no verdict (3 vs 3 runs)  no verdict (3 vs 3 runs)  no verdict (3 vs 3 runs)  no verdict (3 vs 3 "
                        + "runs)  no verdict (3 vs 3 runs)  no verdict (3 vs 3 runs)",
                "no verdict: needs 4 repeats, this run has 3 per cell (repeats: 4 in the file, or --repeats 4)")), text);
    }
}
