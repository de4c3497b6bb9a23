package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.TakesSeconds;

/**
 * Output that is not a terminal (CI logs, tee, nohup) sees what runs when sending starts and a
 * plain progress line every --progress-interval, so that a long run is seen advancing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgressLinesTest {

    private static String header(int seconds) {
        return "sending: e2e loopback, 1,000 msg/s of 1,024 B for " + seconds + " s after 0 s warm-up "
                + "(uniform arrivals, 1 producer, 1 consumer); durability: acks=none (no broker: messages go from thread "
                + "to thread in this JVM)";
    }

    @TempDir
    Path dir;

    /** @param seconds long enough for the lines a test expects (or, with --quiet, would have printed) */
    private CliRun e2e(int seconds, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("e2e", "--system", "loopback", "--duration", seconds + "s",
                "--warmup", "0s", "--output", dir.resolve("out").toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    @TakesSeconds
    void theHeaderComesWhenSendingStartsAndThenAPlainLineEveryInterval() {
        CliRun run = e2e(3, "--progress-interval", "1s");

        assertEquals(0, run.exitCode, run.toString());
        List<String> lines = run.err.lines().toList();
        assertEquals(header(3), lines.get(0), run.err);
        List<String> progress = lines.stream().filter(l -> l.startsWith("progress: ")).toList();
        assertTrue(progress.size() >= 2, run.err);
        for (String line : progress) {
            assertTrue(line.matches("progress: \\d of 3 s, (measuring|draining)  sent [\\d,]+  received [\\d,]+  lost 0  "
                    + "p99 ([\\d,]+\\.\\d{3} ms|-) \\(last 1 s\\)  cpu \\d+%"), line);
        }
        assertTrue(run.out.contains("msgbench e2e: loopback"), "the summary still ends the run: " + run.out);
    }

    @Test
    @TakesSeconds
    void aZeroIntervalKeepsTheHeaderAndDropsTheLines() {
        CliRun run = e2e(1, "--progress-interval", "0");

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of(header(1)), run.err.lines().toList());
    }

    @Test
    @TakesSeconds
    void quietPrintsNothingWhileTheRunGoes() {
        CliRun run = e2e(2, "--quiet", "--progress-interval", "1s");

        assertEquals(0, run.exitCode, run.toString());
        assertEquals("", run.err);
    }

    @Test
    void anIntervalShorterThanTheMonitorsSecondIsRefused() {
        CliRun run = e2e(1, "--progress-interval", "500ms");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --progress-interval must be 0 (none) or at least 1s, got 500ms "
                + "(see java -jar bench-all.jar e2e --help)" + System.lineSeparator(), run.err);
    }
}
