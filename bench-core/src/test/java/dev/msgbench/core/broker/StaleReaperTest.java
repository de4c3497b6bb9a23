package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class StaleReaperTest {

    @TempDir
    Path dir;

    private Path owned;
    private Path brokerTemp;
    private ManagedProcess child;

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.stop(Duration.ZERO);
        }
        if (brokerTemp != null) {
            TempDirs.deleteRecursively(brokerTemp);
        }
    }

    /** Records the child as a crashed JVM would have left it: under an owner that has exited. */
    private Path recordForDeadOwner(String commandLine) {
        ProcessMarker real = ProcessMarker.forChild("stale node", ProcessHandle.of(child.pid()).orElseThrow(),
                brokerTemp);
        return new ProcessMarker(real.name(), real.pid(), real.startInstant(), commandLine, deadPid(),
                real.ownerStartInstant(), real.tempDir()).write(owned);
    }

    private long deadPid() {
        ManagedProcess gone = ManagedProcess.start(NativeCommand.of("gone", dir.resolve("gone.log"), "true"),
                dir.resolve("other-owned"));
        assertEquals(OptionalInt.of(0), gone.awaitExit(Duration.ofSeconds(10)));
        return gone.pid();
    }

    private void startChild() throws IOException {
        owned = dir.resolve("owned");
        brokerTemp = TempDirs.create("reaper-test");
        Files.writeString(brokerTemp.resolve("data"), "x");
        child = ManagedProcess.start(NativeCommand.of("stale node", dir.resolve("stale.log"), "sleep", "600"),
                dir.resolve("live-owned"));
    }

    @Test
    @Timeout(20)
    void killsAChildRecordedForADeadOwnerAndDeletesItsTempDir() throws IOException {
        startChild();
        Path marker = recordForDeadOwner(ProcessHandle.of(child.pid()).orElseThrow().info().commandLine().orElseThrow());

        List<String> killed = new StaleReaper(owned).reap();

        assertEquals(List.of("stale node (pid " + child.pid() + ")"), killed);
        assertEquals(OptionalInt.of(137), child.awaitExit(Duration.ofSeconds(5)));
        assertFalse(Files.exists(brokerTemp), "temp dir deleted");
        assertFalse(Files.exists(marker), "marker deleted");
    }

    @Test
    @Timeout(20)
    void leavesAChildAloneWhileItsOwnerRuns() throws IOException {
        startChild();
        Path marker = ProcessMarker.forChild("live node", ProcessHandle.of(child.pid()).orElseThrow(), brokerTemp)
                .write(owned);

        assertEquals(List.of(), new StaleReaper(owned).reap());

        assertTrue(child.isAlive());
        assertTrue(Files.exists(brokerTemp.resolve("data")));
        assertTrue(Files.exists(marker));
    }

    @Test
    @Timeout(20)
    void neverKillsAProcessWhoseCommandLineNoLongerMatches() throws IOException {
        startChild();
        // as if the recorded process had died and its pid gone to an unrelated program
        recordForDeadOwner("/usr/bin/some-other-program");

        assertEquals(List.of(), new StaleReaper(owned).reap());

        assertTrue(child.isAlive());
        assertFalse(Files.exists(brokerTemp), "the temp dir of a process that is gone is still removed");
    }

    @Test
    @Timeout(20)
    void neverDeletesADirectoryItDidNotCreate() throws IOException {
        startChild();
        TempDirs.deleteRecursively(brokerTemp);
        brokerTemp = Files.createDirectory(dir.resolve("precious"));
        recordForDeadOwner(ProcessHandle.of(child.pid()).orElseThrow().info().commandLine().orElseThrow());

        new StaleReaper(owned).reap();

        assertEquals(OptionalInt.of(137), child.awaitExit(Duration.ofSeconds(5)), "the process is still reaped");
        assertTrue(Files.exists(brokerTemp), "but a directory without the msgbench- prefix is kept");
    }
}
