package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.tune.FlagSet;
import dev.msgbench.cli.tune.Jdk;
import dev.msgbench.cli.tune.TuneBaseline;
import dev.msgbench.cli.tune.TuneMatrix;
import dev.msgbench.cli.tune.TuneRow;
import dev.msgbench.cli.tune.TuneSet;
import dev.msgbench.cli.tune.TuneSpreadTable;
import dev.msgbench.cli.tune.TuneTable;
import dev.msgbench.core.UserError;

/** tune's repeats on synthetic runs: the spread table, the verdicts and --baseline, no broker and no child JVM. */
class TuneRepeatsTest {

    private static final Jdk JDK17 = new Jdk(Path.of("/jdk17"), 17);
    private static final Jdk JDK25 = new Jdk(Path.of("/jdk25"), 25);

    /** A complete run whose latencies scale with {@code p99Ms}, with the given GC count. */
    private static TuneRow run(String set, double p99Ms, long gc) {
        return new TuneRow("jdk17", set, List.of("-XX:+Use" + set + "GC"), "complete", p99Ms / 4, p99Ms, p99Ms * 2,
                p99Ms * 10, 3000, 3000, gc, gc * 2.0, 2.0, 1.5, 0.05, 1.0, "-", "x");
    }

    private static TuneSet set(String name, List<TuneRow> runs, double addedP99) {
        return new TuneSet("jdk17-" + name, "jdk17", name, runs.get(0).flags(), runs,
                Map.of("p50", addedP99 / 4, "p99", addedP99, "p99.9", addedP99 * 2, "max", addedP99 * 10));
    }

    @Test
    void eachSetShowsItsMedianRunAndSpreadAndAVerdictPerFigureAgainstTheBaseline() {
        List<TuneRow> g1 = new ArrayList<>();
        List<TuneRow> z = new ArrayList<>();
        for (double p99 : new double[] {1.0, 1.2, 0.9, 1.1, 1.3}) {
            g1.add(run("G1", p99, 3));
        }
        for (double p99 : new double[] {2.0, 2.4, 2.2, 2.6, 2.1}) {
            z.add(run("Z", p99, 3));
        }
        // a failed run is counted, and left out of the spread and the verdict
        z.add(TuneRow.failed("jdk17", "Z", List.of("-XX:+UseZGC"), "exit 1, no result.json", "x"));
        StringWriter text = new StringWriter();
        TuneSpreadTable.print(List.of(set("G1", g1, 1.15), set("Z", z, 2.3)), Map.of("jdk17-Z", "jdk17-G1"), 5,
                new PrintWriter(text));

        assertEquals(String.join("\n",
                "5 runs per set, interleaved; each figure: the median run [lowest..highest run] of the complete runs",
                "figure                jdk17 G1                jdk17 Z",
                "runs complete         5 of 5                  5 of 6",
                "p50 ms                0.275 [0.225..0.325]    0.550 [0.500..0.650]",
                "p99 ms                1.100 [0.900..1.300]    2.200 [2.000..2.600]",
                "p99.9 ms              2.200 [1.800..2.600]    4.400 [4.000..5.200]",
                "max ms                11.000 [9.000..13.000]  22.000 [20.000..26.000]",
                "rate/s                3,000 [3,000..3,000]    3,000 [3,000..3,000]",
                "gc n                  3 [3..3]                3 [3..3]",
                "gc ms                 6 [6..6]                6 [6..6]",
                "gc max ms             2 [2..2]                2 [2..2]",
                "alloc MiB/s           1.5 [1.5..1.5]          1.5 [1.5..1.5]",
                "hiccup p99 ms         0.050 [0.050..0.050]    0.050 [0.050..0.050]",
                "hiccup max ms         1.000 [1.000..1.000]    1.000 [1.000..1.000]",
                "p50 ms, runs added    0.288                   0.575",
                "p99 ms, runs added    1.150                   2.300",
                "p99.9 ms, runs added  2.300                   4.600",
                "max ms, runs added    11.500                  23.000",
                "verdicts by two-sided Mann-Whitney rank test over the runs, exact p, at 5%; a verdict needs 4 runs a side "
                        + "(3 a side cannot reach it: the smallest p is 0.100)",
                "against jdk17 G1  jdk17 Z",
                "p50 ms            worse x2.00 (p=0.008)",
                "p99 ms            worse x2.00 (p=0.008)",
                "p99.9 ms          worse x2.00 (p=0.008)",
                "max ms            worse x2.00 (p=0.008)",
                "rate/s            within noise (p=1.00)",
                "gc n              within noise (p=1.00)",
                "gc ms             within noise (p=1.00)",
                "gc max ms         within noise (p=1.00)",
                "alloc MiB/s       within noise (p=1.00)",
                "hiccup p99 ms     within noise (p=1.00)",
                "hiccup max ms     within noise (p=1.00)",
                ""), text.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void threeRunsASideGiveTheSpreadAndNoVerdict() {
        List<TuneRow> g1 = List.of(run("G1", 1.0, 3), run("G1", 1.1, 3), run("G1", 1.2, 3));
        List<TuneRow> z = List.of(run("Z", 5.0, 3), run("Z", 5.1, 3), run("Z", 5.2, 3));
        StringWriter text = new StringWriter();
        TuneSpreadTable.print(List.of(set("G1", g1, 1.1), set("Z", z, 5.1)), Map.of("jdk17-Z", "jdk17-G1"), 3,
                new PrintWriter(text));

        assertTrue(text.toString().contains("p99 ms            no verdict (3 vs 3 runs)"), text.toString());
    }

    @Test
    void theRunsTableNumbersEachRunAndNamesEachSetsFlagsOnce() {
        List<TuneRow> rows = List.of(run("G1", 1.0, 3), run("Z", 2.0, 3), run("G1", 1.1, 4), run("Z", 2.1, 3));
        StringWriter text = new StringWriter();
        TuneTable.print(rows, List.of(1, 1, 2, 2), List.of(), new PrintWriter(text));

        List<String> lines = text.toString().lines().toList();
        assertTrue(lines.get(0).startsWith("jdk    flags  run  status    p50 ms"), lines.get(0));
        assertTrue(lines.get(3).startsWith("jdk17  G1     2    complete   0.275"), lines.get(3));
        assertEquals(List.of("jdk17 G1: -XX:+UseG1GC", "jdk17 Z: -XX:+UseZGC"), lines.subList(5, 7));
    }

    @Test
    void aFlagSetBaselineComparesWithinEachJdkAndACellBaselineComparesEverything() {
        List<TuneMatrix.Cell> cells = TuneMatrix.expand(List.of(JDK17, JDK25), FlagSet.defaults().subList(0, 3)).cells();

        assertEquals(Map.of("jdk17-Parallel", "jdk17-G1", "jdk25-Parallel", "jdk25-G1", "jdk25-ZGC-gen", "jdk25-G1"),
                TuneBaseline.of("g1", cells));
        assertEquals(Map.of("jdk17-Parallel", "jdk17-G1", "jdk25-G1", "jdk17-G1", "jdk25-Parallel", "jdk17-G1",
                "jdk25-ZGC-gen", "jdk17-G1"), TuneBaseline.of("jdk17-G1", cells));
        assertEquals("--baseline Serial: not one of the sets this tune runs; give one of G1, Parallel, ZGC-gen, "
                        + "jdk17-G1, jdk17-Parallel, jdk25-G1, jdk25-Parallel, jdk25-ZGC-gen",
                assertThrows(UserError.class, () -> TuneBaseline.of("Serial", cells)).getMessage());
    }

    @Test
    void aBaselineThatIsNotASetIsOneLineAndExit2BeforeAnyChildStarts(@TempDir Path dir) {
        CliRun run = CliRun.of("tune", "--jdk", System.getProperty("java.home"), "--sets", "G1,Parallel",
                "--baseline", "ZGC", "--output", dir.resolve("out").toString(), "--", "--system", "loopback");

        assertEquals(2, run.exitCode, run.toString());
        String feature = "jdk" + Runtime.version().feature();
        assertEquals("error: --baseline ZGC: not one of the sets this tune runs; give one of G1, Parallel, " + feature
                + "-G1, " + feature + "-Parallel\n", run.err.replace(System.lineSeparator(), "\n"));
        assertTrue(Files.notExists(dir.resolve("out")), "no child started");
    }

    @Test
    void repeatsBelowOneAreRefused() {
        CliRun run = CliRun.of("tune", "--repeats", "0", "--sets", "G1", "--", "--system", "loopback");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --repeats must be at least 1, got 0 (see java -jar bench-all.jar tune --help)\n",
                run.err.replace(System.lineSeparator(), "\n"));
    }
}
