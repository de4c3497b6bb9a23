package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.AbstractLocalBrokerTest.SleepBroker;
import dev.msgbench.core.disk.ForgetfsMount;
import dev.msgbench.core.disk.PowerCut;
import dev.msgbench.core.testing.NeedsFuse;

/**
 * A local broker asked for forgetful disks, with {@code sleep} processes as nodes and this JVM
 * writing in their data dirs: each node on a disk of its own, what the start wrote counts as
 * written back, a power cut of one node takes what it wrote since and never synced and nothing
 * of the others', and nothing is left after close.
 */
@NeedsFuse
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForgetfulBrokerTest {

    @TempDir
    Path dir;

    @Test
    void aPowerCutKillsTheNodeAndRollsBackItsDiskOnlyAndCloseUnmountsEveryDiskAndRemovesTheTempDir() throws IOException {
        Path parent = Files.createDirectories(dir.resolve("tmp"));
        Path logs = dir.resolve("logs");
        // written while the broker starts, never synced: as a broker's boot files are
        SleepBroker broker = SleepBroker.start(BrokerSpec.defaults().withNodes(2).withLogDir(logs).withForgetfulDisks(true),
                parent, b -> write(b.dataDir(1).resolve("boot"), 9000, false));
        try {
            for (int node = 1; node <= 2; node++) {
                assertEquals(1, ForgetfsMount.on(broker.dataDir(node)).size(), "node " + node + " runs on its own disk");
            }
            write(broker.dataDir(1).resolve("synced"), 5000, true);
            write(broker.dataDir(1).resolve("unsynced"), 7000, false);
            write(broker.dataDir(2).resolve("unsynced"), 3000, false);

            PowerCut cut = broker.powerCut(1);

            assertEquals("killed by signal 9 (SIGKILL)", broker.exitDescription(1));
            assertNull(broker.exitDescription(2), "node 2 still runs");
            assertEquals(5000, Files.size(broker.dataDir(1).resolve("synced")));
            assertEquals(9000, Files.size(broker.dataDir(1).resolve("boot")), "what the start wrote counts as written back");
            assertFalse(Files.exists(broker.dataDir(1).resolve("unsynced")), "never synced: gone");
            assertEquals(3000, Files.size(broker.dataDir(2).resolve("unsynced")), "another node's disk keeps its power");
            assertEquals(1, cut.namespaceUndone(), cut.toString());
            assertEquals(1, ForgetfsMount.on(broker.dataDir(1)).size(), "mounted afresh for the restart");

            broker.restartNodes(List.of(1), Duration.ofSeconds(5));

            assertNull(broker.exitDescription(1), "node 1 runs again");
        } finally {
            broker.close();
        }
        assertEquals(List.of(), ForgetfsMount.list().stream().filter(m -> m.mountPoint().startsWith(dir)).toList());
        assertEquals(List.of(), list(parent), "the temp dir is removed");
        assertEquals(List.of("forgetfs-1.log", "forgetfs-2.log"), list(logs).stream()
                .map(p -> p.getFileName().toString()).filter(n -> n.startsWith("forgetfs")).sorted().toList());
    }

    /**
     * Write-through disks, as a disk-full fault asks: a full disk fails the write itself, until space
     * is back; a slow one holds the fsync (time bounded from below only); the other node's disk is
     * left alone.
     */
    @Test
    void aNodesDiskFailsWritesWhileFullAndHoldsSyncsWhileSlowUntilHealed() throws IOException {
        Path parent = Files.createDirectories(dir.resolve("tmp"));
        SleepBroker broker = SleepBroker.start(BrokerSpec.defaults().withNodes(2)
                .withDataDisks(DataDisks.FORGETFUL_WRITE_THROUGH), parent, b -> { });
        try {
            assertTrue(broker.fillDisk(1).full());
            IOException full = assertThrows(IOException.class, () -> writeChecked(broker.dataDir(1).resolve("a"), 8192));
            assertTrue(String.valueOf(full.getMessage()).contains("No space left on device"), full.toString());
            write(broker.dataDir(2).resolve("a"), 8192, true);
            assertTrue(broker.freeDisk(1).healthy());
            write(broker.dataDir(1).resolve("b"), 8192, true);

            assertEquals(Duration.ofMillis(300), broker.slowDisk(1, Duration.ofMillis(300)).slowDurableOps());
            long start = System.nanoTime();
            write(broker.dataDir(1).resolve("c"), 100, true);
            assertTrue(System.nanoTime() - start >= 300_000_000L, "the fsync waited at least the delay");
            assertTrue(broker.healDisk(1).healthy());
        } finally {
            broker.close();
        }
        assertEquals(List.of(), ForgetfsMount.list().stream().filter(m -> m.mountPoint().startsWith(dir)).toList());
        assertEquals(List.of(), list(parent), "the temp dir is removed");
    }

    /** What the forgetful disks of a failed start leave: nothing but the logs. */
    @Test
    void aFailedStartUnmountsTheDisksItMounted() throws IOException {
        Path parent = Files.createDirectories(dir.resolve("tmp"));
        IllegalStateException failure = new IllegalStateException("the readiness check failed");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SleepBroker.start(
                BrokerSpec.defaults().withNodes(2).withForgetfulDisks(true), parent, b -> {
                    throw failure;
                }));
        assertTrue(e == failure, e.toString());
        assertEquals(List.of(), ForgetfsMount.list().stream().filter(m -> m.mountPoint().startsWith(dir)).toList());
        try (Stream<Path> files = Files.walk(parent)) {
            assertEquals(List.of(), files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().endsWith(".log")).toList(), "only logs are kept");
        }
    }

    private static void write(Path file, int size, boolean sync) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[size]));
            if (sync) {
                channel.force(true);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void writeChecked(Path file, int size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[size]));
        }
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.toList();
        }
    }
}
