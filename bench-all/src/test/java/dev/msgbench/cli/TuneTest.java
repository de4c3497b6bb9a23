package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.tune.FlagSet;
import dev.msgbench.cli.tune.Jdk;
import dev.msgbench.cli.tune.TuneMatrix;
import dev.msgbench.cli.tune.TuneRow;
import dev.msgbench.cli.tune.TuneTable;
import dev.msgbench.core.UserError;
import dev.msgbench.core.result.ResultFiles;

class TuneTest {

    private static final Jdk JDK17 = new Jdk(Path.of("/jdk17"), 17);
    private static final Jdk JDK25 = new Jdk(Path.of("/jdk25"), 25);

    @Test
    void theDefaultMatrixSkipsFlagsAJdkDoesNotHaveAndSaysWhy() {
        TuneMatrix matrix = TuneMatrix.expand(List.of(JDK17, JDK25), FlagSet.defaults());

        assertEquals(List.of("jdk17-G1", "jdk17-Parallel", "jdk17-G1-fixed-heap",
                        "jdk25-G1", "jdk25-Parallel", "jdk25-ZGC-gen", "jdk25-G1-fixed-heap", "jdk25-G1-compact-headers"),
                matrix.cells().stream().map(TuneMatrix.Cell::id).toList());
        assertEquals(List.of("jdk17 ZGC-gen: skipped, generational ZGC exists from JDK 21 (its only mode from 24)",
                        "jdk17 G1-compact-headers: skipped, compact object headers are a product flag from JDK 25 (JEP 519)"),
                matrix.skipped());
    }

    @Test
    void zGenerationalIsLeftOutWhereItIsObsolete() {
        FlagSet zgc = FlagSet.defaults().stream().filter(s -> s.name().equals("ZGC-gen")).findFirst().orElseThrow();

        assertEquals(List.of("-XX:+UseZGC", "-XX:+ZGenerational"), zgc.flagsFor(new Jdk(Path.of("/jdk21"), 21)));
        assertEquals(List.of("-XX:+UseZGC"), zgc.flagsFor(JDK25));
    }

    @Test
    void aUserFlagSetRunsOnEveryJdk() {
        FlagSet set = FlagSet.parse("small = -Xmx128m  -XX:+UseSerialGC");

        assertEquals(new FlagSet("small", List.of("-Xmx128m", "-XX:+UseSerialGC"), 0, "given"), set);
        assertEquals(2, TuneMatrix.expand(List.of(JDK17, JDK25), List.of(set)).cells().size());
    }

    @Test
    void aFlagSetWithoutANameOrWithANonFlagIsRefusedNamingTheOption() {
        assertEquals("--flags -Xmx1g: expected NAME=FLAGS, e.g. --flags 'small-heap=-Xmx256m -XX:+UseG1GC'",
                assertThrows(UserError.class, () -> FlagSet.parse("-Xmx1g")).getMessage());
        assertEquals("--flags x=-Xmx1g G1: G1 is not a JVM flag (flags start with -)",
                assertThrows(UserError.class, () -> FlagSet.parse("x=-Xmx1g G1")).getMessage());
    }

    @Test
    void theTableShowsEachChildsResult() throws Exception {
        Path root = Path.of(TuneTest.class.getResource("/tune").toURI());
        List<TuneRow> rows = List.of(
                TuneRow.of("jdk17", "G1", List.of("-XX:+UseG1GC"), ResultFiles.readResult(root.resolve("jdk17-G1")),
                        root.resolve("jdk17-G1")),
                TuneRow.of("jdk25", "Parallel", List.of("-XX:+UseParallelGC"),
                        ResultFiles.readResult(root.resolve("jdk25-Parallel")), root.resolve("jdk25-Parallel")),
                TuneRow.failed("jdk25", "ZGC-gen", List.of("-XX:+UseZGC", "-XX:+ZGenerational"), "exit 1, no result.json", "x"),
                // a child that recorded the CPUs, and shared busy ones with the broker
                TuneRow.of("jdk25", "Serial", List.of("-XX:+UseSerialGC"), ScriptedCellRunner.withCpu(
                        ScriptedCellRunner.complete(3000, 3000, 30000, 2.5), 0.97, true), root.resolve("jdk25-Serial")));
        StringWriter text = new StringWriter();
        TuneTable.print(rows, List.of("jdk17 ZGC-gen: skipped"), new PrintWriter(text));

        assertEquals(String.join("\n",
                "jdk    flags     status                  p50 ms  p99 ms  p99.9 ms  max ms  rate/s  gc n  gc ms  gc max  alloc MiB/s  hiccup p99  hiccup max        cpu busy",
                "jdk17  G1        complete                 0.250   0.900     2.500  12.000   3,000     3      7       4          1.3       0.080       4.200               -",
                "jdk25  Parallel  complete                 0.200   0.800     1.500  30.000   3,000     1     25       -            -           -           -               -",
                "jdk25  ZGC-gen   exit 1, no result.json       -       -         -       -       -     -      -       -            -           -           -               -",
                "jdk25  Serial    complete                 2.500   2.500     2.500   2.500   3,000     -      -       -            -           -           -  97% contention",
                "jdk17 G1: -XX:+UseG1GC",
                "jdk25 Parallel: -XX:+UseParallelGC",
                "jdk25 ZGC-gen: -XX:+UseZGC -XX:+ZGenerational",
                "jdk25 Serial: -XX:+UseSerialGC",
                "jdk17 ZGC-gen: skipped",
                ""), text.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void theHtmlTableEscapesWhatItShows() throws Exception {
        Path root = Path.of(TuneTest.class.getResource("/tune").toURI());
        TuneRow row = TuneRow.of("jdk17", "G1<x>", List.of("-XX:+UseG1GC"), ResultFiles.readResult(root.resolve("jdk17-G1")),
                root.resolve("jdk17-G1"));
        String html = TuneTable.html(List.of(row), List.of(), "--system nats");

        assertTrue(html.contains("<tr><td>jdk17</td><td>G1&lt;x&gt;</td><td>complete</td>"
                + "<td class=\"n\">0.250</td>"), html);
    }

    @Test
    void theChildsE2eFlagsAreCheckedBeforeAnyChildStarts(@TempDir Path dir) {
        CliRun run = CliRun.of("tune", "--sets", "G1", "--output", dir.resolve("out").toString(), "--",
                "--system", "loopback", "--rate", "-5");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --rate must be a positive number of messages per second, got -5 "
                + "(see java -jar bench-all.jar e2e --help)\n", run.err.replace(System.lineSeparator(), "\n"));
        assertTrue(Files.notExists(dir.resolve("out")), "no child started");
    }

    @Test
    void outputAfterTheSeparatorIsRefusedBecauseEachChildGetsItsOwn() {
        CliRun run = CliRun.of("tune", "--sets", "G1", "--", "--system", "nats", "--output", "x");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: tune: --output after -- is set per child; give --output before -- for the whole matrix\n",
                run.err.replace(System.lineSeparator(), "\n"));
    }
}
