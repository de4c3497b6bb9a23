package dev.msgbench.core.disk;

import static dev.msgbench.core.disk.DiskFiles.bytes;
import static dev.msgbench.core.disk.DiskFiles.list;
import static dev.msgbench.core.disk.DiskFiles.synced;
import static dev.msgbench.core.disk.DiskFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.msgbench.core.testing.NeedsFuse;
import dev.msgbench.core.testing.Poll;

/**
 * A disk that is slow or full, on command, through real mounts. Time is only ever bounded from
 * below: a busy machine makes everything slower, never faster. A delay that must not run out
 * during a test is an hour: the test's timeout fails it long before.
 */
@NeedsFuse
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SickDiskTest {

    private static final Duration DELAY = Duration.ofMillis(100);
    private static final Duration HOUR = Duration.ofHours(1);
    private static final int SYNCS = 5;
    /** Not a multiple of 4 KiB: its last block has room for a short append. */
    private static final int A_SIZE = 10_000;
    private static final String NO_SPACE = "No space left on device";

    @TempDir
    Path dir;

    private ForgetfulDisk mount(PageCache pageCache) {
        return ForgetfulDisk.mount(dir.resolve("data"), dir.resolve("forgetfs.log"), pageCache);
    }

    @Test
    void everyFsyncAndFdatasyncTakesTheExtraDelayAndStillMakesTheDataDurable() throws IOException {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            assertEquals(new Sickness(DELAY, Duration.ZERO, false, 0), disk.slowDurableOps(DELAY));
            Path file = disk.dataDir().resolve("segment.log");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                long start = System.nanoTime();
                for (int i = 0; i < SYNCS; i++) {
                    write(channel, bytes(1000, i), i * 1000L);
                    channel.force(i % 2 == 0);
                }
                assertAtLeast(DELAY.multipliedBy(SYNCS), start);
                assertTrue(disk.healSlow().healthy());
                write(channel, bytes(1000, SYNCS), SYNCS * 1000L);
                channel.force(false);
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut(), "slow, not broken: every sync counted");
            assertEquals((SYNCS + 1) * 1000L, Files.size(file));
        }
    }

    @Test
    void writesToADsyncFileAndFsyncsOfADirectoryAreSlowedToo() throws IOException {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            disk.slowDurableOps(DELAY);
            long start = System.nanoTime();
            try (FileChannel channel = FileChannel.open(disk.dataDir().resolve("dsync.log"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
                for (int i = 0; i < SYNCS; i++) {
                    write(channel, bytes(1000, i), i * 1000L);
                }
            }
            assertAtLeast(DELAY.multipliedBy(SYNCS), start);
            start = System.nanoTime();
            try (FileChannel directory = FileChannel.open(disk.dataDir(), StandardOpenOption.READ)) {
                for (int i = 0; i < SYNCS; i++) {
                    directory.force(true);
                }
            }
            assertAtLeast(DELAY.multipliedBy(SYNCS), start);
        }
    }

    /** Without the writeback cache every write(2) is a request of its own. */
    @Test
    void slowWritesDelayEveryWriteThatReachesTheDisk() throws IOException {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_THROUGH)) {
            assertEquals(new Sickness(Duration.ZERO, DELAY, false, 0), disk.slowWrites(DELAY));
            long start = System.nanoTime();
            try (FileChannel channel = FileChannel.open(disk.dataDir().resolve("segment.log"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                for (int i = 0; i < SYNCS; i++) {
                    write(channel, bytes(1000, i), i * 1000L);
                }
            }
            assertAtLeast(DELAY.multipliedBy(SYNCS), start);
            assertTrue(disk.healSlow().healthy());
        }
    }

    @Test
    void aNegativeDelayIsRefused() {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> disk.slowDurableOps(Duration.ofMillis(-1)));
            assertEquals("a disk cannot be faster than itself: PT-0.001S", refused.getMessage());
            assertTrue(disk.sickness().healthy());
        }
    }

    @Test
    void healingReleasesAnFsyncThatTheSlowDiskHolds() throws Exception {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            disk.slowDurableOps(HOUR);
            try (FileChannel channel = FileChannel.open(disk.dataDir().resolve("segment.log"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                write(channel, bytes(1000, 1), 0);
                FutureTask<Void> sync = inThread(() -> channel.force(false));
                Poll.until(() -> disk.sickness().heldRequests() == 1);
                assertFalse(sync.isDone());
                disk.healSlow();
                sync.get();
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
        }
    }

    /**
     * A broker killed inside an fsync the slow disk holds cannot die before the fsync ends; the
     * power cut ends it, unfinished, and the power comes back on a healthy disk.
     */
    @Test
    void aPowerCutEndsAnFsyncThatTheSlowDiskHoldsAndTheDiskComesBackHealthy() throws Exception {
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            disk.slowDurableOps(HOUR);
            Path file = disk.dataDir().resolve("00000.log");
            Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-cp", System.getProperty("java.class.path"), DiskChildMains.WritesAndSyncs.class.getName(),
                    file.toString()).redirectError(dir.resolve("writer.log").toFile()).start();
            try {
                String said = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
                assertEquals("writing", said, "see writer.log");
                Poll.until(() -> disk.sickness().heldRequests() == 1);
                writer.destroyForcibly();
                // the sync never returned: the file's bytes and its very name are forgotten
                assertEquals(new PowerCut(1, 0, DiskChildMains.RECORD_BYTES, 1), disk.powerCut());
                writer.waitFor();
            } finally {
                writer.destroyForcibly().waitFor();
            }
            assertEquals(List.of(), list(disk.dataDir()));
            assertTrue(disk.sickness().healthy(), disk.sickness().toString());
        }
    }

    @Test
    void whileFullAWriteThatNeedsANewBlockFailsWithNoSpaceUntilSpaceIsFreed() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        byte[] b = bytes(5000, 2);
        try (ForgetfulDisk disk = mount(PageCache.WRITE_THROUGH)) {
            Path file = synced(disk.dataDir().resolve("segment.log"), a);
            assertEquals(new Sickness(Duration.ZERO, Duration.ZERO, true, 0), disk.fillUp());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                IOException full = assertThrows(IOException.class, () -> write(channel, b, A_SIZE));
                assertEquals(NO_SPACE, full.getMessage());
                assertTrue(disk.freeSpace().healthy());
                write(channel, b, A_SIZE);
                channel.force(false);
            }
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            byte[] expected = Arrays.copyOf(a, A_SIZE + b.length);
            System.arraycopy(b, 0, expected, A_SIZE, b.length);
            assertArrayEquals(expected, Files.readAllBytes(file));
        }
    }

    @Test
    void whileFullReadsOverwritesInPlaceSyncsRenamesAndDeletesWorkButNewNamesFail() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount(PageCache.WRITE_THROUGH)) {
            Path file = synced(disk.dataDir().resolve("a.log"), a);
            Path other = synced(disk.dataDir().resolve("b.log"), bytes(A_SIZE, 2));
            disk.fillUp();
            assertArrayEquals(a, Files.readAllBytes(file));
            byte[] patch = bytes(3000, 3);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(channel, patch, 2000);
                channel.force(true);
            }
            System.arraycopy(patch, 0, a, 2000, patch.length);
            assertArrayEquals(a, Files.readAllBytes(file));
            Files.delete(other);
            Path renamed = Files.move(file, disk.dataDir().resolve("c.log"));
            assertEquals(List.of("c.log"), list(disk.dataDir()));

            Path created = disk.dataDir().resolve("new.log");
            FileSystemException noFile = assertThrows(FileSystemException.class, () -> Files.createFile(created));
            assertEquals(created + ": " + NO_SPACE, noFile.getMessage());
            Path directory = disk.dataDir().resolve("new");
            FileSystemException noDirectory = assertThrows(FileSystemException.class, () -> Files.createDirectory(directory));
            assertEquals(directory + ": " + NO_SPACE, noDirectory.getMessage());
            assertEquals(0, Files.getFileStore(disk.dataDir()).getUsableSpace());

            // a file grows sparse, as on ext4, but its hole has no blocks to write into
            try (RandomAccessFile raf = new RandomAccessFile(renamed.toFile(), "rw")) {
                raf.setLength(1 << 20);
                raf.seek(1 << 19);
                IOException hole = assertThrows(IOException.class, () -> raf.write(patch));
                assertEquals(NO_SPACE, hole.getMessage());
            }
        }
    }

    /** Behind the kernel's page cache nothing fails at write(2): the failure waits for write-back. */
    @Test
    void behindTheWritebackCacheAFullDiskFailsTheFsyncOnceAndTheCloseNotTheWrite() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount(PageCache.WRITE_BACK)) {
            Path file = synced(disk.dataDir().resolve("a.log"), a);
            Path closed = synced(disk.dataDir().resolve("b.log"), a);
            disk.fillUp();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(channel, bytes(5000, 2), A_SIZE);
                IOException full = assertThrows(IOException.class, () -> channel.force(false));
                assertEquals(NO_SPACE, full.getMessage());
                // the kernel reports a failed write-back once: the pages are clean now, on no disk
                channel.force(false);
            }
            FileChannel channel = FileChannel.open(closed, StandardOpenOption.WRITE);
            write(channel, bytes(5000, 2), A_SIZE);
            IOException full = assertThrows(IOException.class, channel::close);
            assertEquals(NO_SPACE, full.getMessage());
            assertFalse(channel.isOpen());

            assertEquals(A_SIZE, Files.size(disk.backingDir().resolve("a.log")));
            assertEquals(A_SIZE, Files.size(disk.backingDir().resolve("b.log")));
        }
    }

    /** Preallocated index space, as Kafka's: ext4 would raise SIGBUS at the page fault instead. */
    @ParameterizedTest
    @EnumSource(PageCache.class)
    void whileFullAMappedWriteIntoAHoleFailsAtForce(PageCache pageCache) throws IOException {
        try (ForgetfulDisk disk = mount(pageCache)) {
            Path index = disk.dataDir().resolve("00000.index");
            try (RandomAccessFile raf = new RandomAccessFile(index.toFile(), "rw")) {
                raf.setLength(1 << 20);
                raf.getFD().sync();
            }
            disk.fillUp();
            try (FileChannel channel = FileChannel.open(index, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, 1 << 20);
                map.put(0, (byte) 1);
                UncheckedIOException full = assertThrows(UncheckedIOException.class, map::force);
                assertEquals(NO_SPACE + " (msync with parameter MS_SYNC failed)", full.getCause().getMessage());
            }
            // the mapping outlives the channel and keeps the mount busy: a cut, not a close, ends it
            assertEquals(new PowerCut(0, 0, 0, 0), disk.powerCut());
            assertArrayEquals(new byte[1 << 20], Files.readAllBytes(index));
        }
    }

    @Test
    void aPowerCutOfADiskThatIsFullAndSlowRollsBackAndTheDiskComesBackHealthy() throws IOException {
        byte[] a = bytes(A_SIZE, 1);
        try (ForgetfulDisk disk = mount(PageCache.WRITE_THROUGH)) {
            Path file = synced(disk.dataDir().resolve("a.log"), a);
            disk.slowDurableOps(HOUR);
            disk.fillUp();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(channel, bytes(3000, 2), 2000); // in place: it fits, and is never synced
            }
            Files.delete(file);
            assertEquals(new PowerCut(1, 2 * 4096, 0, 1), disk.powerCut());
            assertArrayEquals(a, Files.readAllBytes(file));
            assertTrue(disk.sickness().healthy(), disk.sickness().toString());
            Path added = synced(disk.dataDir().resolve("b.log"), a);
            assertArrayEquals(a, Files.readAllBytes(added));
        }
    }

    /** A clean stop lifts the sickness: the held fsync ends, and then the mount and the daemon. */
    @Test
    void closingADiskThatIsSlowAndFullWithAnFsyncHeldLeavesNoMountAndNoProcess() throws Exception {
        Path data = dir.resolve("data");
        byte[] written = bytes(1000, 1);
        ForgetfulDisk disk = mount(PageCache.WRITE_BACK);
        long pid = disk.daemonPid();
        FutureTask<Void> sync;
        try {
            disk.slowDurableOps(HOUR);
            FileChannel channel = FileChannel.open(data.resolve("segment.log"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            write(channel, written, 0);
            sync = inThread(() -> {
                try (channel) {
                    channel.force(false);
                }
            });
            Poll.until(() -> disk.sickness().heldRequests() == 1);
            disk.fillUp();
        } finally {
            disk.close();
        }
        sync.get();
        assertEquals(List.of(), ForgetfsMount.on(data));
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "daemon " + pid + " is alive");
        assertArrayEquals(written, Files.readAllBytes(data.resolve("segment.log")));
    }

    /** Something that blocks, run in a thread of its own, so that the test can act while it waits. */
    private static FutureTask<Void> inThread(IoAction action) {
        FutureTask<Void> task = new FutureTask<>(() -> {
            action.run();
            return null;
        });
        Thread thread = new Thread(task, "sick-disk-test");
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void assertAtLeast(Duration expected, long startNanos) {
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        assertTrue(took.compareTo(expected) >= 0, "took " + took + ", less than " + expected);
    }
}
