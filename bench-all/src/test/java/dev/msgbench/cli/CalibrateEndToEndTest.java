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
        CliRun run = calibrate("c");
        if (run.out.contains("\n  MEASUREMENT ERROR: ")) {
            // A disturbed run, once. In CI, with the other test fork on the same 2 cores, the delayed
            // messages came about 0.3 s later than the pause alone explains (p93.75 910 ms against 500,
            // max 1,318 against 1,000) with no gap in delivery after the resume over 0.06 s: the server
            // or the consumer was slow to catch up, not the measurement wrong. A wrong one fails twice.
            CliRun first = run;
            run = calibrate("again");
            assertEquals(0, run.exitCode, "twice out of range; first:\n" + first + "\nsecond:\n" + run);
        }

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.matches("(?s).*calibrate nats: a (0\\.9|1\\.0)\\d\\d s pause .*"), run.out);
        // p(1 - S/2D), p(1 - S/4D) and the max, each within its range. S is the stall as judged: the pause plus
        // any time the server itself took to deliver again after it, so the percentiles may fall below p90.
        assertEquals(3, run.out.lines().filter(line -> line.matches("  (p\\d\\d\\.\\d+|max) .* ok")).count(), run.out);
        assertTrue(run.out.contains("\n  AS EXPECTED: ") || run.out.contains("\n  REAL EXTRA DELAY: "), run.out);
        assertTrue(run.out.contains("results: " + dir), run.out);
    }

    private CliRun calibrate(String folder) {
        CliRun run = CliRun.of("calibrate", "--system", "nats", "--pause", "1s", "--duration", "8s", "--warmup", "1s",
                "--output", dir.resolve(folder).toString());
        assertTrue(Files.exists(dir.resolve(folder + "/result.json")), run.toString());
        return run;
    }
}
