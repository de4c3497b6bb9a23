package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.result.FileNotWritten;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;

/**
 * A results folder on a disk that fills up: each file the run writes is a link to /dev/full,
 * where every write fails with ENOSPC as on a full disk (no root, no mount). The run still
 * measures, prints its summary and names what it could not write; nothing half-written is left
 * as if whole. A real full file system is in bench-all's FullOutputDiskTest.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FullDiskRunTest {

    private static final Path FULL = Path.of("/dev/full");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);

    @Test
    void aRunWhoseFilesTheDiskRefusesStillPrintsItsSummaryAndNamesEachFile() throws Exception {
        for (String file : List.of(IntervalLog.FILE_NAME, ResultFiles.RESULT_JSON + ".tmp", "latency.hgrm")) {
            Files.createSymbolicLink(dir.resolve(file), FULL);
        }
        LoadRun run = FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ofMillis(500), Duration.ofSeconds(1)),
                new InMemorySystem(clock), clock, new PrintStream(out, true, StandardCharsets.UTF_8));

        ResultsNotWritten e = assertThrows(ResultsNotWritten.class, run::execute);

        assertEquals("cannot write " + dir.resolve("result.json") + ": no space left on device; not whole either: "
                + "latency.hlog (cut short at byte 0), latency.hgrm; the run's figures are in the summary above",
                e.getMessage());
        assertNull(e.runFailure(SettingNames.KEYS));
        assertEquals(RunStatus.COMPLETE, e.result().status());
        assertEquals(1_500, e.result().counts().received(), "the measurement went on while its log could not be written");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("sent 1,500   acknowledged 1,500   received 1,500   lost 0"),
                out.toString(StandardCharsets.UTF_8));
        // the refused files written at once are gone, the rest is whole
        assertFalse(Files.exists(dir.resolve(ResultFiles.RESULT_JSON + ".tmp"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(dir.resolve("latency.hgrm"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(dir.resolve(ResultFiles.RESULT_JSON)));
        assertEquals(List.of("ack.hgrm", "intervals.csv", "latency.hlog", "send-delay.hgrm", "service.hgrm"), names(dir));
    }

    @Test
    void aResultJsonTheDiskRefusesLeavesNoTemporaryFileAndNamesTheReason() throws Exception {
        Files.createSymbolicLink(dir.resolve(ResultFiles.RESULT_JSON + ".tmp"), FULL);
        LoadRun run = FakeClockRuns.loadRun(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofMillis(500)),
                new InMemorySystem(clock), clock, new PrintStream(out, true, StandardCharsets.UTF_8));

        ResultsNotWritten e = assertThrows(ResultsNotWritten.class, run::execute);

        FileNotWritten resultJson = e.files().get(0);
        assertEquals(dir.resolve(ResultFiles.RESULT_JSON), resultJson.file());
        assertEquals("no space left on device", resultJson.reason());
        assertFalse(resultJson.cutShort());
        assertEquals(List.of("ack.hgrm", "intervals.csv", "latency.hgrm", "latency.hlog", "send-delay.hgrm",
                "service.hgrm"), names(dir));
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
