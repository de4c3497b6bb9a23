package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.NeedsFuse;

/** calibrate --power-loss against real redis-servers on forgetful disks: each run loses what Redis's documentation says. */
@NeedsBroker
@NeedsFuse
@ExtendWith(OwnTmpdir.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CalibratePowerLossEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void aKillLosesNothingAndAPowerCutLosesWhatEverysecHadNotSyncedAndAlwaysNothing() throws Exception {
        CliRun run = CliRun.of("calibrate", "--power-loss", "--output", dir.resolve("out").toString());

        assertEquals(0, run.exitCode, run.toString());
        List<String> verdicts = run.out.lines().filter(l -> l.startsWith("  appendfsync ")).toList();
        assertEquals(4, verdicts.size(), run.out);
        assertTrue(verdicts.get(0).matches("  appendfsync everysec kill       AS EXPECTED: 0 of [0-9,]+ acknowledged "
                + "entries lost \\(expected 0\\)"), verdicts.get(0));
        assertTrue(verdicts.get(1).matches("  appendfsync everysec power-loss AS EXPECTED: [1-9][0-9,]* of [0-9,]+ "
                + "acknowledged entries lost \\(expected more than 0\\)"), verdicts.get(1));
        assertTrue(verdicts.get(2).startsWith("  appendfsync always   kill       AS EXPECTED: 0 of "), verdicts.get(2));
        assertTrue(verdicts.get(3).startsWith("  appendfsync always   power-loss AS EXPECTED: 0 of "), verdicts.get(3));
        assertTrue(run.out.contains("\n  AS EXPECTED: a kill loses nothing Redis acknowledged, a power cut loses what it "
                + "had not fsynced\n"), run.out);
        for (String folder : List.of("everysec-kill", "everysec-power-loss", "always-kill", "always-power-loss")) {
            assertTrue(Files.isRegularFile(dir.resolve("out").resolve(folder).resolve("result.json")), folder);
        }
    }
}
