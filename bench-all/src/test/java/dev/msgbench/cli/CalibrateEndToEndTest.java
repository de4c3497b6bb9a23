package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.NeedsBroker;

/** calibrate against a real nats-server: the pause it makes is the pause it measures. */
@NeedsBroker
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CalibrateEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void aPausedNatsServerIsMeasuredAsThePauseItWas() {
        CliRun run = CliRun.of("calibrate", "--system", "nats", "--pause", "1s", "--duration", "8s", "--warmup", "1s",
                "--output", dir.resolve("c").toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.matches("(?s).*calibrate nats: a (0\\.9|1\\.0)\\d\\d s pause .*"), run.out);
        // p(1 - S/2D), p(1 - S/4D) and the max, each within its range. S is the stall as judged: the pause plus
        // any time the server itself took to deliver again after it, so the percentiles may fall below p90.
        assertEquals(3, run.out.lines().filter(line -> line.matches("  (p\\d\\d\\.\\d+|max) .* ok")).count(), run.out);
        assertTrue(run.out.contains("\n  AS EXPECTED: ") || run.out.contains("\n  REAL EXTRA DELAY: "), run.out);
        assertTrue(Files.exists(dir.resolve("c/result.json")));
    }
}
