package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunningMarker;
import dev.msgbench.core.testing.TakesSeconds;

/**
 * A measuring JVM killed with SIGKILL runs no shutdown hook and closes no file. What it leaves
 * must still be readable (the interval log, flushed each second) and must say what happened
 * to whoever reads the folder next.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KilledRunTest {

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void aRunKilledWithSigkillLeavesReadableIntervalsAndAFolderTheNextCommandsNameIncomplete() throws Exception {
        Path out = dir.resolve("killed");
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "e2e", "--system", "loopback", "--rate", "1000", "--warmup", "0s", "--duration", "60s",
                "--progress-interval", "1s", "--output", out.toString()))
                .redirectErrorStream(true).start();
        long pid = child.pid();
        try {
            // a progress line is printed after its interval is written and flushed to latency.hlog
            awaitLine(child, line -> line.startsWith("progress: "), "progress: ...");
            child.destroyForcibly(); // SIGKILL on Linux
            assertEquals(128 + 9, child.waitFor(), "killed by SIGKILL");
        } finally {
            child.destroyForcibly();
        }

        assertFalse(Files.exists(out.resolve(ResultFiles.RESULT_JSON)), "killed before any result was written");
        assertTrue(Files.exists(out.resolve(RunningMarker.FILE_NAME)));
        assertTrue(latencyIntervals(out) >= 1, "the intervals measured before the kill are on disk");

        String incomplete = "incomplete: the run that wrote " + out + " was killed (pid " + pid + ") before it finished";
        // drawn as far as it was measured, and said to be incomplete
        CliRun report = CliRun.of("report", out.toString());
        assertEquals(2, report.exitCode, report.toString());
        assertEquals("error: report DIR: " + incomplete + "; left out of the report: its summary and settings (its "
                + "intervals are drawn from latency.hlog)" + System.lineSeparator(), report.err);
        assertTrue(report.out.startsWith("report: " + out.resolve("report.html")), report.out);

        CliRun again = CliRun.of("e2e", "--system", "loopback", "--output", out.toString());
        assertEquals(2, again.exitCode, again.toString());
        assertEquals("error: " + incomplete + "; give another --output, or --force to write over it "
                + "(see java -jar bench-all.jar e2e --help)" + System.lineSeparator(), again.err);
    }

    /** Reads the child's output until a line {@code wanted} matches; fails if the child ends first. */
    static void awaitLine(Process child, Predicate<String> wanted, String what) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null) {
            seen.append(line).append('\n');
            if (wanted.test(line)) {
                return;
            }
        }
        throw new AssertionError("the child ended (exit " + child.waitFor() + ") before printing '" + what + "':\n" + seen);
    }

    private static int latencyIntervals(Path out) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(out.resolve(IntervalLog.FILE_NAME).toFile());
        int intervals = 0;
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            assertNotNull(h.getTag());
            if (h.getTag().equals("latency")) {
                intervals++;
            }
        }
        return intervals;
    }
}
