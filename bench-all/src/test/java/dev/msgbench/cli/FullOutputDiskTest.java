package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.report.IntervalSeries;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * The run of issue 33 as a new user met it: e2e against nats-server with its results folder on a
 * 48 KiB file system, which fills up during the run. A real tmpfs (the tests run as root, as CI
 * does), unmounted after each test. The run goes on measuring, prints its summary, keeps every
 * file it could write, leaves nothing half-written as if whole, and ends with exit code 5 and one
 * line naming the file and the cause. The same with links to /dev/full, without root, is
 * bench-core's FullDiskRunTest.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class FullOutputDiskTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private Path mount;

    @BeforeEach
    void mountA48KibFileSystem() throws Exception {
        mount = Files.createDirectories(dir.resolve("full48k"));
        run("mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", mount.toString());
    }

    @AfterEach
    void unmount() throws Exception {
        run("umount", mount.toString());
    }

    @Test
    void aRunWhoseDiskFillsUpPrintsItsSummaryKeepsWhatItCouldWriteAndExitsWith5() throws Exception {
        Path out = mount.resolve("x");

        CliRun run = CliRun.of("e2e", "--system", "nats", "--rate", "5000", "--duration", "8s", "--output", out.toString());

        assertEquals(ExitCode.NOT_WRITTEN.code(), run.exitCode, run.toString());
        assertTrue(run.out.contains("sent 50,000"), "the summary table, with the run's figures:\n" + run.out);
        List<String> errors = run.err.lines().filter(l -> l.startsWith("error: ")).toList();
        assertEquals(1, errors.size(), run.err);
        String error = errors.get(0);
        assertTrue(error.startsWith("error: cannot write " + out.resolve("result.json") + ": no space left on device; "
                + "not whole either: latency.hlog (cut short at byte "), error);
        assertTrue(error.endsWith("; the run's figures are in the summary above"), error);
        assertTrue(run.err.endsWith(error + NL), "the error is the last line:\n" + run.err);
        assertFalse(run.err.contains("\tat "), "no stack trace:\n" + run.err);

        List<String> files = names(out);
        assertFalse(files.contains("result.json"), files.toString());
        assertTrue(files.stream().noneMatch(f -> f.endsWith(".tmp") || f.equals("RUNNING")), "nothing half-written "
                + "left as if whole, and no marker of a killed run: " + files);
        for (String hgrm : files.stream().filter(f -> f.endsWith(".hgrm")).toList()) {
            String text = Files.readString(out.resolve(hgrm), StandardCharsets.US_ASCII);
            assertTrue(text.contains("#[Buckets"), hgrm + " is whole: it is kept only if written whole");
            assertFalse(error.contains(hgrm), hgrm + " was written and is not named");
        }
        // the log cut short is kept, its whole lines readable up to where the disk filled
        List<String> damage = new ArrayList<>();
        IntervalSeries intervals = IntervalSeries.read(out, e -> damage.add(e.getMessage()));
        assertFalse(intervals.of(HistogramKind.LATENCY).isEmpty(), "the intervals before the disk filled");
        // a write the full disk cut leaves part of a line, unless it failed right after a whole one
        assertTrue(damage.isEmpty() || damage.size() == 1
                && damage.get(0).startsWith(out.resolve("latency.hlog") + ": ends mid-line at byte "), damage.toString());
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + output);
    }
}
