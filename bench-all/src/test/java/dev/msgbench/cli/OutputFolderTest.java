package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.msgbench.cli.Limits;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.RunningMarker;
import dev.msgbench.core.testing.TakesSeconds;

/**
 * --output through the real command line: no result is overwritten without --force, a folder
 * that cannot be written costs no broker, and a folder left by a killed run says so.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutputFolderTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    /** Fails the test if a command gets as far as running a cell (starting a broker). */
    private final ScriptedCellRunner nothingRuns = ScriptedCellRunner.failingIfRun();

    private CliRun loopback(String command, Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(command, "--system", "loopback", "--output", out.toString()));
        args.addAll(command.equals("e2e") ? List.of("--rate", "200", "--duration", "500ms", "--warmup", "0s")
                : List.of("--messages", "100"));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"e2e", "throughput"})
    void aFolderHoldingAResultIsRefusedAndKeptWithoutForce(String command) throws Exception {
        Path out = dir.resolve("out");
        assertEquals(0, loopback(command, out).exitCode);
        String before = Files.readString(out.resolve(ResultFiles.RESULT_JSON));

        CliRun again = CliRun.with(nothingRuns, command, "--output", out.toString());

        assertEquals(2, again.exitCode, again.toString());
        assertEquals("error: --output " + out + " already holds files; give an empty or new folder, so no result is "
                + "overwritten, or --force to write over it (see java -jar bench-all.jar " + command + " --help)" + NL,
                again.err);
        assertEquals(before, Files.readString(out.resolve(ResultFiles.RESULT_JSON)));
    }

    @Test
    @TakesSeconds
    void forceWritesOverTheOldRunAndDeletesItsFilesButNoOthers() throws Exception {
        Path out = dir.resolve("out");
        assertEquals(0, loopback("e2e", out).exitCode);
        Files.writeString(out.resolve("ack.hgrm"), "from a system that acknowledged");
        Files.writeString(out.resolve("notes.txt"), "mine");

        CliRun run = loopback("throughput", out, "--force");

        assertEquals(0, run.exitCode, run.toString());
        assertEquals("throughput", ResultFiles.readResult(out).command());
        assertFalse(Files.exists(out.resolve("ack.hgrm")), "the old run's file is gone");
        assertEquals("mine", Files.readString(out.resolve("notes.txt")));
        assertFalse(Files.exists(out.resolve(RunningMarker.FILE_NAME)), "a finished run leaves no marker");
    }

    @Test
    void aFileWhereTheFolderShouldBeIsRefusedBeforeAnyBrokerStarts() throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");

        CliRun run = CliRun.with(nothingRuns, "e2e", "--output", file.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --output " + file + " is a file, not a folder (see java -jar bench-all.jar e2e --help)" + NL,
                run.err);
    }

    @Test
    void aFileInThePathIsRefusedBeforeAnyBrokerStarts() throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");
        Path out = file.resolve("results");

        CliRun run = CliRun.with(nothingRuns, "e2e", "--system", "nats", "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --output " + out + " cannot be created: " + file + " is a file, not a folder "
                + "(see java -jar bench-all.jar e2e --help)" + NL, run.err);
    }

    @Test
    void aFolderTheFileSystemRefusesIsRefusedBeforeAnyBrokerStarts() {
        // root may write anywhere a permission bit forbids; /proc refuses even root
        CliRun run = CliRun.with(nothingRuns, "throughput", "--output", "/proc/msgbench-results");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --output /proc/msgbench-results cannot be written (the file system refuses to create it); "
                + "give a folder you can write (see java -jar bench-all.jar throughput --help)" + NL, run.err);
    }

    @Test
    void aWorkloadRunRefusesAFileInThePathToo() throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");
        Path workload = Files.writeString(dir.resolve("w.yaml"), "defaults: {rate: 5}\n");

        CliRun run = CliRun.with(nothingRuns, "run", workload.toString(), "--output", file.resolve("r").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: --output " + file.resolve("r") + " cannot be created: " + file
                + " is a file, not a folder"), run.err);
    }

    /** Both created their folder with a bare createDirectories: a stack trace, reported as a bug. */
    @ParameterizedTest
    @ValueSource(strings = {"sweep --objective none --system loopback", "tune --sets none --flags x=-Xmx64m"})
    void aSweepAndATuneRefuseAFileInThePathToo(String command) throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--output", file.resolve("r").toString()));

        CliRun run = CliRun.with(nothingRuns, args.toArray(String[]::new));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --output " + file.resolve("r") + " cannot be created: " + file + " is a file, not a folder "
                + "(see java -jar bench-all.jar " + args.get(0) + " --help)" + NL, run.lastErrLine());
    }

    @Test
    void aFolderLeftByAKilledRunIsNamedIncompleteByTheNextRunAndByReportAndCompare() throws Exception {
        Path out = killedRunFolder();
        String incomplete = "incomplete: the run that wrote " + out + " was killed (pid 999999999) before it finished";

        CliRun e2e = CliRun.with(nothingRuns, "e2e", "--output", out.toString());
        assertEquals(2, e2e.exitCode, e2e.toString());
        assertEquals("error: " + incomplete + "; give another --output, or --force to write over it "
                + "(see java -jar bench-all.jar e2e --help)" + NL, e2e.err);

        CliRun report = CliRun.of("report", out.toString());
        assertEquals(2, report.exitCode, report.toString());
        assertEquals("error: report DIR: " + incomplete + "; left out of the report: its summary and settings (its "
                + "intervals are drawn from latency.hlog)" + NL, report.err);

        CliRun compare = CliRun.of("compare", out.toString(), out.toString());
        assertEquals(2, compare.exitCode, compare.toString());
        assertTrue(compare.err.contains(incomplete), compare.err);
        assertEquals(1, compare.err.lines().count(), compare.err);
    }

    @Test
    void aWorkloadRunWhoseCellWasKilledIsNamedIncompleteByTheNextRunAndByReport() throws Exception {
        Path runDir = dir.resolve("workload");
        Path cell = runDir.resolve("01-kafka");
        Files.createDirectories(cell);
        Files.writeString(cell.resolve(RunningMarker.FILE_NAME), "pid=999999999\nprocessStart=x\nstartedAt=y\n");
        Path workload = Files.writeString(dir.resolve("w.yaml"), "defaults: {rate: 5}\n");
        String incomplete = "incomplete: the run that wrote " + cell + " was killed (pid 999999999) before it finished";

        CliRun run = CliRun.with(nothingRuns, "run", workload.toString(), "--output", runDir.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + incomplete + "; give another --output (see java -jar bench-all.jar run --help)" + NL,
                run.err);

        CliRun report = CliRun.of("report", runDir.toString());
        assertEquals(2, report.exitCode, report.toString());
        assertTrue(report.err.startsWith("error: report DIR: " + incomplete + ";"), report.err);
    }

    @Test
    @TakesSeconds
    void forceWritesOverAFolderLeftByAKilledRun() throws Exception {
        Path out = killedRunFolder();

        CliRun run = loopback("e2e", out, "--force");

        assertEquals(0, run.exitCode, run.toString());
        assertFalse(Files.exists(out.resolve(RunningMarker.FILE_NAME)));
        assertEquals(RunStatus.COMPLETE, ResultFiles.readResult(out).status());
    }

    @Test
    void aFolderARunStillWritesIsRefusedEvenWithForce() throws Exception {
        Path out = dir.resolve("busy");
        RunningMarker marker = RunningMarker.write(out); // this JVM: a run that is still going

        CliRun run = CliRun.with(nothingRuns, "e2e", "--output", out.toString(), "--force");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + out + " is being written by a run still going (pid " + marker.pid() + ", started "
                + marker.startedAt() + "); give another --output (see java -jar bench-all.jar e2e --help)" + NL, run.err);
        assertTrue(Files.exists(out.resolve(RunningMarker.FILE_NAME)));
    }

    @Test
    void writingTheResultReplacesItWholeDeletesTheMarkerAndLeavesNoTemporaryFile() throws Exception {
        Path out = dir.resolve("written");
        RunningMarker.write(out);
        Files.writeString(out.resolve(ResultFiles.RESULT_JSON), "{ half a file");

        ResultFiles.writeResult(out, ScriptedCellRunner.complete(100, 100, 1000, 2.5));

        assertEquals(1000, ResultFiles.readResult(out).counts().sent());
        try (java.util.stream.Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(ResultFiles.RESULT_JSON), files.map(f -> f.getFileName().toString()).toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"e2e", "throughput"})
    void helpTeachesForceProgressIntervalAndTheLimitsWithExamples(String command) {
        String help = CliRun.of(command, "--help").out.replaceAll("\\s+", " ");

        assertTrue(help.contains("--force Write over the results already in --output"), help);
        assertTrue(help.contains("--progress-interval=TIME When output is not a terminal"), help);
        assertTrue(help.contains("--progress-interval 1m"), help);
        assertTrue(help.contains(Limits.HELP), help);
    }

    /** What a SIGKILLed run leaves: its marker, naming a process that is gone, and a partial interval log. */
    private Path killedRunFolder() throws Exception {
        Path out = dir.resolve("killed");
        Files.createDirectories(out);
        Files.writeString(out.resolve(RunningMarker.FILE_NAME), "pid=999999999\nprocessStart=" + Instant.EPOCH
                + "\nstartedAt=" + Instant.EPOCH + "\n");
        Files.writeString(out.resolve("latency.hlog"), "#[StartTime: 0.000 (seconds since epoch)]\n");
        return out;
    }
}
