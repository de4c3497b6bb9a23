package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.RunStatus;

/** The exit codes scripts branch on, and how a run's result maps to one. */
class ExitCodeTest {

    @Test
    void theNumbersKeepTheirMeaning() {
        assertEquals(0, ExitCode.OK.code());
        assertEquals(1, ExitCode.RUN_FAILED.code());
        assertEquals(2, ExitCode.USAGE.code());
        assertEquals(3, ExitCode.REGRESSED.code());
        assertEquals(4, ExitCode.ACKNOWLEDGED_LOST.code());
        assertEquals(5, ExitCode.NOT_WRITTEN.code());
        assertEquals(130, ExitCode.INTERRUPTED.code());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"complete, OK", "interrupted, INTERRUPTED", "failed, RUN_FAILED"})
    void aRunsStatusGivesItsExitCode(String status, ExitCode expected) {
        assertEquals(expected, ExitCode.of(ScriptedCellRunner.result(RunStatus.ofLabel(status), null, 100, 100, 10, 1)));
    }

    @Test
    void aCompleteRunThatLostAcknowledgedMessagesGives4AndAFailedOneStill1() {
        Counts brokenPromise = new Counts(10, 10, 0, 9, 1, 0, 0, 0, 0, 0, 0, 10);
        assertEquals(ExitCode.ACKNOWLEDGED_LOST,
                ExitCode.of(ScriptedCellRunner.withCounts(RunStatus.COMPLETE, null, 100, 100, 1, brokenPromise)));
        assertEquals(ExitCode.RUN_FAILED,
                ExitCode.of(ScriptedCellRunner.withCounts(RunStatus.FAILED, "gone", 100, 100, 1, brokenPromise)));
        Counts notPromised = new Counts(10, 0, 0, 9, 0, 1, 0, 0, 0, 0, 0, 10);
        assertEquals(ExitCode.OK, ExitCode.of(ScriptedCellRunner.withCounts(RunStatus.COMPLETE, null, 100, 100, 1, notPromised)));
    }

    @ParameterizedTest(name = "{0} --help")
    @CsvSource(delimiter = '|', value = {
        "e2e | 4 acknowledged messages were lost",
        "throughput | 4 acknowledged messages were lost",
        "run | 4 when none failed and one lost messages the system had acknowledged",
        "sweep | 4 when no step failed and one lost messages the system had acknowledged"})
    void theHelpOfEveryMeasuringCommandNamesExitCode4(String command, String expected) {
        String text = CliRun.of(command, "--help").out.replaceAll("\\s+", " ");
        assertTrue(text.contains(expected), text);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"0, OK", "4, ACKNOWLEDGED_LOST", "5, NOT_WRITTEN", "1, RUN_FAILED", "2, USAGE", "130, INTERRUPTED",
        "137, RUN_FAILED", "143, RUN_FAILED"})
    void aChildProcesssStatusReadsAsOursAndAnyOtherAsAFailedRun(int status, ExitCode expected) {
        assertEquals(expected, ExitCode.ofProcess(status));
    }

    @ParameterizedTest(name = "{0} --help")
    @CsvSource({"e2e", "throughput"})
    void theHelpOfARunNamesExitCode5ForResultsTheDiskRefused(String command) {
        String text = CliRun.of(command, "--help").out.replaceAll("\\s+", " ");
        assertTrue(text.contains("5 the results could not all be written (a full disk; the summary printed holds the "
                + "figures)"), text);
    }

    @Test
    void reportHelpNamesTheCodesItExitsWith() {
        String text = CliRun.of("report", "--help").out.replaceAll("\\s+", " ");
        assertTrue(text.contains("Exit codes: " + ExitCode.OK.code() + " written, " + ExitCode.USAGE.code()
                + " bad input, or a file damaged or missing (the page is written with what could be read)."), text);
    }

    /** report's was a stack trace and exit 1 after the page had been drawn; floor's came after its measuring. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"report,--output,report.html", "floor,--json,floor.json"})
    void aFileWhosePlaceCannotHoldItIsOneLineAndExitsWithTwo(String command, String flag, String name, @TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "");
        String see = " (see java -jar bench-all.jar " + command + " --help)" + System.lineSeparator();
        // report reads results folders (this empty one is never read); floor takes none
        String[] before = command.equals("report") ? new String[] {command, dir.toString()} : new String[] {command};
        CliRun under = CliRun.of(with(before, flag, file.resolve("r").toString()));
        assertEquals(ExitCode.USAGE.code(), under.exitCode, under.toString());
        assertEquals("error: " + flag + " " + file.resolve("r") + " cannot be created: " + file + " is a file, not a folder"
                + see, under.err);

        CliRun folder = CliRun.of(with(before, flag, dir.toString()));
        assertEquals(ExitCode.USAGE.code(), folder.exitCode, folder.toString());
        assertEquals("error: " + flag + " " + dir + " is a folder; give a file in it, e.g. " + dir.resolve(name) + see,
                folder.err);
    }

    private static String[] with(String[] before, String... more) {
        String[] all = java.util.Arrays.copyOf(before, before.length + more.length);
        System.arraycopy(more, 0, all, before.length, more.length);
        return all;
    }

    @Test
    void compareHelpNamesTheCodesItExitsWith() {
        CliRun help = CliRun.of("compare", "--help");

        String text = help.out.replaceAll("\\s+", " ");
        assertTrue(text.contains("exits with " + ExitCode.REGRESSED.code() + " when NEW is worse"), text);
        assertTrue(text.contains("Exit codes: " + ExitCode.OK.code() + " no regression beyond the limits, "
                + ExitCode.REGRESSED.code() + " regression, " + ExitCode.USAGE.code() + " bad input."), text);
    }
}
