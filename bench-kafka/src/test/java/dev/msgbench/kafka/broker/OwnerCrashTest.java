package dev.msgbench.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.ProcStat;
import dev.msgbench.core.broker.StaleReaper;
import dev.msgbench.core.testing.NeedsBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What happens to a cluster when the JVM that owns it is stopped by a signal. */
@NeedsBroker
class OwnerCrashTest {

    @TempDir
    Path dir;

    private ManagedProcess owner;
    private ProcessHandle node;
    private Path tempDir;

    @AfterEach
    void stopOwner() {
        if (owner != null) {
            owner.stop(Duration.ZERO);
        }
    }

    /** A JVM that starts a one-node cluster, its temp dirs and markers under our @TempDir. */
    private void startOwner() throws IOException, InterruptedException {
        Path report = dir.resolve("cluster.txt");
        List<String> jvm = new ArrayList<>(List.of("-Xmx128m", "-Djava.io.tmpdir=" + dir));
        // the broker's jars are where this build put them (surefire says where)
        String repo = System.getProperty("maven.repo.local");
        if (repo != null) {
            jvm.add("-Dmaven.repo.local=" + repo);
        }
        owner = new JavaChild("cluster owner", ClusterOwner.class.getName(), jvm, List.of(report.toString()), dir,
                dir.resolve("owner.log"), null).start();
        while (!Files.exists(report)) {
            assertTrue(owner.isAlive(), () -> "the owner failed: " + read(owner.logFile()));
            Thread.sleep(50);
        }
        String[] fields = Files.readString(report).split(" ");
        node = ProcessHandle.of(Long.parseLong(fields[0])).orElseThrow();
        tempDir = Path.of(fields[1]);
    }

    @Test
    @Timeout(60)
    void aSigtermOfTheOwnerStopsTheNodeAndRemovesTheTempDirThroughTheShutdownHook() throws Exception {
        startOwner();

        // SIGINT (Ctrl+C) and SIGTERM run the same shutdown hooks
        ProcessHandle.of(owner.pid()).orElseThrow().destroy();

        assertEquals(OptionalInt.of(143), owner.awaitExit(Duration.ofSeconds(30)));
        assertFalse(ProcStat.isRunning(node), "the node outlived its owner");
        assertFalse(Files.exists(tempDir), "the hook removed the temp dir");
    }

    @Test
    @Timeout(60)
    void aSigkillOfTheOwnerEndsTheNodeThroughItsWatchdogAndTheReaperRemovesTheTempDir() throws Exception {
        startOwner();

        ProcessHandle.of(owner.pid()).orElseThrow().destroyForcibly();
        long killed = System.nanoTime();
        while (ProcStat.isRunning(node) && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(20)) {
            Thread.sleep(20);
        }
        System.out.printf("node ended %d ms after its owner's SIGKILL%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));

        assertFalse(ProcStat.isRunning(node), "the node outlived its owner");
        assertTrue(Files.exists(tempDir), "no shutdown hook ran, so the temp dir is still there");
        new StaleReaper(dir.resolve("msgbench-owned")).reap();
        assertFalse(Files.exists(tempDir), "the reaper removed the temp dir");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "cannot read " + file + ": " + e;
        }
    }
}
