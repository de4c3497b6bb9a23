package dev.msgbench.core.disk;

import static dev.msgbench.core.disk.DiskFiles.bytes;
import static dev.msgbench.core.disk.DiskFiles.list;
import static dev.msgbench.core.disk.DiskFiles.synced;
import static dev.msgbench.core.disk.DiskFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.NeedsFuse;
import dev.msgbench.core.testing.Poll;

/**
 * Through real mounts, as root: what survives a power cut is exactly what was made durable. A
 * power cut requires every process using the disk to be dead; this JVM stands in for the broker,
 * so every test closes its files before the cut.
 */
@NeedsFuse
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForgetfulDiskTest {

    /** Not a multiple of the layer's 4 KiB blocks, so a partial block is saved and restored. */
    private static final int A_SIZE = 10_000;

    @TempDir
    Path dir;

    private ForgetfulDisk mount() {
        return ForgetfulDisk.mount(dir.resolve("data"), dir.resolve("forgetfs.log"));
    }

    @Test
    void forgetsAnOverwriteAndAnAppendThatWereNeverSyncedKeepingTheSyncedFileByteForByte() throws IOException {
        // the kernel writes whole pages: the overwrite dirtied blocks 0 and 1, the append the
        // partial block 2 of A; all three are restored, and the rest of the append cut off
        assertEquals(new PowerCut(1, A_SIZE, 5000, 0), overwriteAppendAndCut(PageCache.WRITE_BACK));
    }

    /** Without the writeback cache each write reaches the layer as made: only the blocks it touches are saved. */
    @Test
    void forgetsTheSameWithoutTheWritebackCache() throws IOException {
        assertEquals(new PowerCut(1, 2 * 4096, 5000, 0), overwriteAppendAndCut(PageCache.WRITE_THROUGH));
    }

    /** Issue 33's calibration: write A, fsync, overwrite part of A, append B, power cut: A byte for byte. */
    private PowerCut overwriteAppendAndCut(PageCache pageCache) throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = ForgetfulDisk.mount(dir.resolve("data"), dir.resolve("forgetfs.log"), pageCache)) {
            Path file = disk.dataDir().resolve("segment.log");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                write(channel, a, 0);
                channel.force(true);
                write(channel, bytes(3000, 2), 2000);
                write(channel, bytes(5000, 3), A_SIZE);
            }
            PowerCut cut = disk.powerCut();
            assertArrayEquals(a, Files.readAllBytes(file));
            return cut;
        }
    }

    @Test
    void keepsAnOverwriteAndAnAppendOnceTheyAreSynced() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        byte[] overwrite = bytes(3000, 2);
        byte[] b = bytes(5000, 3);
        byte[] expected = Arrays.copyOf(a, A_SIZE + b.length);
        System.arraycopy(overwrite, 0, expected, 2000, overwrite.length);
        System.arraycopy(b, 0, expected, A_SIZE, b.length);
        try (ForgetfulDisk disk = mount()) {
            Path file = disk.dataDir().resolve("segment.log");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                write(channel, a, 0);
                channel.force(true);
                write(channel, overwrite, 2000);
                write(channel, b, A_SIZE);
                channel.force(false);
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            assertArrayEquals(expected, Files.readAllBytes(file));
        }
    }

    @Test
    void aFileCreatedAndNeverFollowedByASyncVanishes() throws IOException {
        try (ForgetfulDisk disk = mount()) {
            Path file = disk.dataDir().resolve("new.log");
            Files.write(file, bytes(100, 1));
            assertEquals(new PowerCut(1, 0, 100, 1), disk.powerCut());
            assertFalse(Files.exists(file));
            assertEquals(List.of(), list(disk.dataDir()));
        }
    }

    /** The journal model: a sync commits every earlier change of a directory entry, as ext4's does. */
    @Test
    void aNewFilesNameIsDurableOnceAnySyncFollowsButItsDataOnlyOnceItIsSyncedItself() throws IOException {
        try (ForgetfulDisk disk = mount()) {
            Path unsynced = disk.dataDir().resolve("unsynced.log");
            Path synced = disk.dataDir().resolve("synced.log");
            Files.write(unsynced, bytes(100, 1));
            byte[] data = bytes(200, 2);
            try (FileChannel channel = FileChannel.open(synced, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                write(channel, data, 0);
                channel.force(true);
            }
            assertEquals(new PowerCut(1, 0, 100, 0), disk.powerCut());
            assertEquals(0, Files.size(unsynced));
            assertArrayEquals(data, Files.readAllBytes(synced));
        }
    }

    @Test
    void anMmapWriteWithoutForceIsForgotten() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount()) {
            Path index = synced(disk.dataDir().resolve("00000.index"), a);
            try (FileChannel channel = FileChannel.open(index, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel.map(FileChannel.MapMode.READ_WRITE, 0, A_SIZE).put(100, (byte) ~a[100]);
            }
            // the mapping outlives the channel: it is never touched again, its mount is cut under it
            disk.powerCut();
            assertArrayEquals(a, Files.readAllBytes(index));
        }
    }

    @Test
    void anMmapWriteWithForceIsKept() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount()) {
            Path index = synced(disk.dataDir().resolve("00000.index"), a);
            try (FileChannel channel = FileChannel.open(index, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, A_SIZE);
                map.put(100, (byte) ~a[100]);
                map.force();
            }
            a[100] = (byte) ~a[100];
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            assertArrayEquals(a, Files.readAllBytes(index));
        }
    }

    @Test
    void writesThroughADsyncChannelAreKeptWithoutAnFsync() throws IOException {
        byte[] data = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount()) {
            Path file = disk.dataDir().resolve("dsync.log");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.DSYNC)) {
                write(channel, data, 0);
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            assertArrayEquals(data, Files.readAllBytes(file));
        }
    }

    @Test
    void aTruncateAndATruncatingOpenOfSyncedDataAreUndone() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        byte[] b = bytes(A_SIZE, 2);
        try (ForgetfulDisk disk = mount()) {
            Path shrunk = synced(disk.dataDir().resolve("shrunk.log"), a);
            Path rewritten = synced(disk.dataDir().resolve("rewritten.log"), b);
            try (FileChannel channel = FileChannel.open(shrunk, StandardOpenOption.WRITE)) {
                channel.truncate(100);
            }
            Files.write(rewritten, bytes(10, 3)); // CREATE, TRUNCATE_EXISTING, WRITE
            assertEquals(new PowerCut(2, 2 * A_SIZE, 0, 0), disk.powerCut());
            assertArrayEquals(a, Files.readAllBytes(shrunk));
            assertArrayEquals(b, Files.readAllBytes(rewritten));
        }
    }

    @Test
    void aRenameAndAnUnlinkSinceTheLastSyncAreUndone() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        byte[] b = bytes(A_SIZE, 2);
        try (ForgetfulDisk disk = mount()) {
            Path renamed = synced(disk.dataDir().resolve("a.log"), a);
            Path deleted = synced(disk.dataDir().resolve("b.log"), b);
            Files.move(renamed, disk.dataDir().resolve("a.log.deleted"));
            Files.delete(deleted);
            assertEquals(new PowerCut(0, 0, 0, 2), disk.powerCut());
            assertEquals(List.of("a.log", "b.log"), list(disk.dataDir()));
            assertArrayEquals(a, Files.readAllBytes(renamed));
            assertArrayEquals(b, Files.readAllBytes(deleted));
        }
    }

    /** Write a temp file, fsync it, rename it over the old one: durable only with a sync after the rename. */
    @Test
    void aFileReplacedByARenameIsTheOldOneUntilTheDirectoryIsSynced() throws IOException {
        byte[] old = bytes(A_SIZE, 1);
        byte[] replacement = bytes(A_SIZE, 2);
        try (ForgetfulDisk disk = mount()) {
            Path target = synced(disk.dataDir().resolve("manifest"), old);
            Path temp = synced(disk.dataDir().resolve("manifest.tmp"), replacement);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            assertEquals(new PowerCut(0, 0, 0, 1), disk.powerCut());
            assertArrayEquals(old, Files.readAllBytes(target));
            assertArrayEquals(replacement, Files.readAllBytes(temp));

            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(disk.dataDir(), StandardOpenOption.READ)) {
                directory.force(true);
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            assertArrayEquals(replacement, Files.readAllBytes(target));
            assertEquals(List.of("manifest"), list(disk.dataDir()));
        }
    }

    /** Writes reach the layer from the kernel's page cache at the latest when the file is closed. */
    @Test
    void anAppendNeedsNoSavedBytesAndAnOverwriteOfSyncedDataSavesItsBlock() throws IOException {
        try (ForgetfulDisk disk = mount()) {
            Path file = synced(disk.dataDir().resolve("segment.log"), bytes(8192, 1));
            assertEquals(new Unsynced(0, 0, 0), disk.unsynced());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(channel, bytes(1 << 20, 2), 8192);
            }
            assertEquals(new Unsynced(1, 0, 0), disk.unsynced());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(channel, bytes(1, 3), 4096);
            }
            assertEquals(new Unsynced(1, 4096, 0), disk.unsynced());
        }
    }

    @Test
    void dataThatWasThereBeforeTheMountCountsAsSyncedAndIsInTheDataDirAfterClose() throws IOException {
        Path data = dir.resolve("data");
        Files.createDirectories(data.resolve("meta"));
        byte[] properties = "node.id=1\n".getBytes(StandardCharsets.UTF_8);
        Files.write(data.resolve("meta/meta.properties"), properties);
        long pid;
        try (ForgetfulDisk disk = mount()) {
            pid = disk.daemonPid();
            assertEquals(1, ForgetfsMount.on(data).size());
            assertEquals(List.of(), list(data.getParent().resolve("data.forgetfs/unlinked")));
            Files.write(data.resolve("added.log"), bytes(100, 1));
            assertEquals(new PowerCut(1, 0, 100, 1), disk.powerCut());
            Files.write(data.resolve("kept.log"), bytes(100, 2));
        }
        assertEquals(List.of(), ForgetfsMount.on(data));
        assertFalse(Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + data + " "));
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "daemon " + pid + " is alive");
        assertEquals(List.of("kept.log", "meta"), list(data));
        assertArrayEquals(properties, Files.readAllBytes(data.resolve("meta/meta.properties")));
        assertEquals(List.of("data", "forgetfs.log"), list(dir));
    }

    @Test
    void theMountOfAKilledDaemonIsDetachedByTheReaper() throws Exception {
        Path data = dir.resolve("data");
        try (ForgetfulDisk disk = mount()) {
            Files.write(data.resolve("kept.log"), bytes(100, 1));
            ForgetfsMount mount = ForgetfsMount.on(data).get(0);
            ProcessHandle daemon = ProcessHandle.of(disk.daemonPid()).orElseThrow();
            daemon.destroyForcibly();
            Poll.until(() -> !mount.daemonRunning());
            assertEquals(List.of(mount), ForgetfsMount.on(data), "the dead daemon's mount stays");
            assertEquals(List.of(), StaleMounts.reap(1000), "another user's broker start leaves it, and does not fail");
            assertEquals(List.of(mount), ForgetfsMount.on(data));
            assertTrue(StaleMounts.reap().contains(data));
            assertEquals(List.of(), ForgetfsMount.on(data));
        }
        // what went through the dead layer is in the backing dir, which close moved back
        assertEquals(List.of("kept.log"), list(data));
    }

    /**
     * The reaper reads the mount list, then asks whether each daemon runs: a daemon that ended in
     * between (a power cut's, which unmounts first) may already have a successor on the same path,
     * another run's live disk. Only the record still on top of its mount point is detached.
     */
    @Test
    void theReaperDetachesOnlyAMountStillOnTopOfItsPath() throws Exception {
        Path data = dir.resolve("data");
        try (ForgetfulDisk disk = mount()) {
            ForgetfsMount live = ForgetfsMount.on(data).get(0);
            ForgetfsMount ended = new ForgetfsMount(live.mountPoint(), live.daemonPid(), live.startTicks() + 1);
            assertTrue(StaleMounts.stillOnTop(live));
            assertFalse(StaleMounts.stillOnTop(ended), "a record the list no longer holds");
            disk.powerCut();
            assertFalse(StaleMounts.stillOnTop(live), "the cut's daemon unmounted before it ended; its successor is on top");
            assertFalse(live.daemonRunning());
            assertFalse(StaleMounts.reap().contains(data), "the live successor stays");
            Files.write(data.resolve("after-the-cut.log"), bytes(10, 2));
            assertEquals(List.of("after-the-cut.log"), list(data));
        }
    }

    /** A SIGKILL runs no shutdown hook: the daemon notices its input close and unmounts by itself. */
    @Test
    void theDaemonOfAJvmKilledWithSigkillUnmountsByItself() throws Exception {
        Path data = dir.resolve("data");
        Process owner = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-cp", System.getProperty("java.class.path"), DiskChildMains.MountsAndWaits.class.getName(),
                data.toString(), dir.resolve("forgetfs.log").toString())
                .redirectError(dir.resolve("owner.log").toFile()).start();
        try {
            String said = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(said != null && said.startsWith("mounted "), "the owner said " + said + "; see owner.log");
            ForgetfsMount mount = ForgetfsMount.on(data).get(0);
            assertEquals(Long.parseLong(said.substring("mounted ".length())), mount.daemonPid());
            Files.write(data.resolve("kept.log"), bytes(100, 1));

            owner.destroyForcibly().waitFor();
            Poll.until(() -> ForgetfsMount.on(data).isEmpty() && !mount.daemonRunning());
            assertArrayEquals(bytes(100, 1), Files.readAllBytes(dir.resolve("data.forgetfs/files/kept.log")));
        } finally {
            owner.destroyForcibly().waitFor();
        }
    }

    /**
     * The case: a writer SIGKILLed with unsynced appends, whose dirty pages the kernel
     * writes to the layer after the kill (here at once, by a syncfs), then the power cut.
     */
    @Test
    void aWriterKilledWithUnsyncedAppendsLeavesExactlyWhatItHadSynced() throws Exception {
        try (ForgetfulDisk disk = mount()) {
            Path log = disk.dataDir().resolve("00000.log");
            Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-cp", System.getProperty("java.class.path"), DiskChildMains.AppendsAndSyncs.class.getName(),
                    log.toString(), "30").redirectError(dir.resolve("writer.log").toFile()).start();
            try {
                String said = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
                assertEquals("synced " + 30 * DiskChildMains.RECORDS_PER_SYNC * DiskChildMains.RECORD_BYTES, said,
                        "see writer.log");
            } finally {
                writer.destroyForcibly().waitFor();
            }
            int syncedRecords = 30 * DiskChildMains.RECORDS_PER_SYNC;
            int written = (syncedRecords + DiskChildMains.UNSYNCED_RECORDS) * DiskChildMains.RECORD_BYTES;
            // syncfs(2) makes nothing durable here: FUSE does not forward it, only the dirty pages
            assertEquals(0, new ProcessBuilder("sync", "-f", log.toString()).inheritIO().start().waitFor());
            assertEquals(written, Files.size(log), "the dead writer's appends, unsynced, are there until the power goes");

            PowerCut cut = disk.powerCut();
            assertEquals(DiskChildMains.UNSYNCED_RECORDS * DiskChildMains.RECORD_BYTES, cut.discardedBytes(), cut.toString());
            byte[] kept = Files.readAllBytes(log);
            assertEquals(syncedRecords * DiskChildMains.RECORD_BYTES, kept.length);
            for (int index = 0; index < syncedRecords; index++) {
                assertArrayEquals(DiskChildMains.record(index), Arrays.copyOfRange(kept, index * DiskChildMains.RECORD_BYTES,
                        (index + 1) * DiskChildMains.RECORD_BYTES), "record " + index);
            }
        }
    }
}
