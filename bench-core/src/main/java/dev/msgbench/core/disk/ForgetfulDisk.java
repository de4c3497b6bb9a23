package dev.msgbench.core.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.broker.TempDirs;

/**
 * A local node's data directory on a disk that can lose power: a forgetfs mount (forgetfs.c
 * says what it models, and what not) over the directory, backed by a sibling directory, so the
 * broker keeps its path. {@link #powerCut} rolls every file back to its last sync and mounts
 * afresh.
 *
 * <p>Layout: for a data dir {@code D}, the files live in {@code D.forgetfs/files} while mounted
 * and the entries that unsynced unlinks and renames removed wait in {@code D.forgetfs/unlinked}.
 * What {@code D} held before the mount is moved in first, and everything is moved back at
 * {@link #close}, so that before and after the disk, {@code D} holds the data.
 *
 * <p>Closing unmounts and keeps everything (a clean shutdown syncs). The mount is closed at JVM
 * exit by the {@link CleanupRegistry} if not before: register a broker on the disk after the
 * disk, so that it stops first. Should this JVM die without its hooks, the daemon sees its input
 * close and unmounts by itself; should the daemon itself be killed, the next mount detaches what
 * it left ({@link StaleMounts}).
 */
public final class ForgetfulDisk implements AutoCloseable {

    static final Path DEV_FUSE = Path.of("/dev/fuse");

    private final Path dataDir;
    private final Path store;
    private final Path files;
    private final Path unlinked;
    private final Path logFile;
    private final Path program;
    private final PageCache pageCache;
    private ForgetfsDaemon daemon;
    private CleanupRegistry.Registration registration;
    private boolean closed;

    private ForgetfulDisk(Path dataDir, Path logFile, Path program, PageCache pageCache) {
        this.dataDir = dataDir;
        this.store = dataDir.resolveSibling(dataDir.getFileName() + ".forgetfs");
        this.files = store.resolve("files");
        this.unlinked = store.resolve("unlinked");
        this.logFile = logFile;
        this.program = program;
        this.pageCache = pageCache;
    }

    /**
     * Mounts the disk over {@code dataDir} (created if missing), whose contents count as synced,
     * behind the kernel's writeback cache ({@link PageCache#WRITE_BACK}).
     *
     * @param logFile receives the daemon's diagnostics, appended
     * @throws UserError when this machine cannot: not root, no /dev/fuse, forgetfs not buildable
     */
    public static ForgetfulDisk mount(Path dataDir, Path logFile) {
        return mount(dataDir, logFile, PageCache.WRITE_BACK);
    }

    /**
     * Mounts the disk over {@code dataDir} (created if missing), whose contents count as synced.
     * A disk that will be {@linkplain #fillUp() filled} while a broker writes to it should be
     * {@link PageCache#WRITE_THROUGH}, so that the broker's write fails as on ext4.
     *
     * @param logFile receives the daemon's diagnostics, appended
     * @throws UserError when this machine cannot: not root, no /dev/fuse, forgetfs not buildable
     */
    public static ForgetfulDisk mount(Path dataDir, Path logFile, PageCache pageCache) {
        requireFacilities(DEV_FUSE, uid());
        Path program = ForgetfsProgram.find();
        StaleMounts.reap();
        Path dir = realDirectory(dataDir);
        if (!ForgetfsMount.on(dir).isEmpty()) {
            throw new IllegalStateException(dir + " is a forgetful disk already");
        }
        ForgetfulDisk disk = new ForgetfulDisk(dir, logFile.toAbsolutePath(), program, pageCache);
        try {
            disk.moveIn();
            disk.daemon = disk.startDaemon();
            disk.registration = CleanupRegistry.register("the forgetful disk on " + dir, disk::close);
        } catch (RuntimeException | Error e) {
            try {
                disk.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return disk;
    }

    /** Refuses, in one line each, what would only fail later inside the daemon. */
    static void requireFacilities(Path devFuse, int uid) {
        if (uid != 0) {
            throw new UserError("the forgetful disk needs root (it mounts a FUSE file system and may abort its connection); "
                    + "this runs as uid " + uid + ": run it as root");
        }
        if (!Files.exists(devFuse)) {
            throw new UserError("the forgetful disk needs " + devFuse + ", which this machine lacks: load the fuse "
                    + "module (modprobe fuse), or run where FUSE works");
        }
    }

    /** Created if missing; the mount table lists mount points by their real path, links resolved. */
    private static Path realDirectory(Path dir) {
        createDirectories(dir);
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + dir, e);
        }
    }

    static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            throw new UserError("the forgetful disk needs Linux (cannot read the owner of /proc/self: " + e.getMessage() + ")");
        }
    }

    /** The broker's data directory: the mount point. */
    public Path dataDir() {
        return dataDir;
    }

    /** Where the files are kept while mounted (reading them there bypasses the layer). */
    public Path backingDir() {
        return files;
    }

    /** The daemon's process id, for tests that kill it. */
    synchronized long daemonPid() {
        requireOpen();
        return daemon.pid();
    }

    /**
     * A power cut: every file goes back to its state at its last sync, and changes to directory
     * entries since the last sync are undone; then the disk is mounted afresh, with an empty page
     * cache, ready for the broker's restart.
     *
     * <p>The caller must have SIGKILLed every process that uses the disk: a process still holding
     * a file would see its mount vanish (and a page of a dead process's mmap that the kernel has
     * not written yet is dropped with the connection, as the power cut drops it). A process
     * SIGKILLed inside an fsync that a slow disk holds dies only when the fsync ends: the kernel
     * waits for a request the daemon has taken. The cut ends it.
     *
     * <p>The power comes back on a healthy disk: a cut lifts slowness and fullness.
     */
    public synchronized PowerCut powerCut() {
        requireOpen();
        PowerCut cut = PowerCut.parse(daemon.cut());
        daemon = null; // it has ended: should the new one fail to mount, the disk is not mounted
        daemon = startDaemon();
        return cut;
    }

    /**
     * A slow disk, a gray failure: from now on every fsync, fdatasync and fsync of a directory
     * (so every write to a file opened {@code SYNC} or {@code DSYNC}, and every
     * {@code MappedByteBuffer.force()}) takes {@code extra} longer; nothing fails. A close is not
     * slowed: it makes nothing durable. {@link Duration#ZERO} heals, releasing the syncs waiting.
     */
    public synchronized Sickness slowDurableOps(Duration extra) {
        return sicken("slow " + nanos(extra));
    }

    /**
     * Every write request that reaches the daemon takes {@code extra} longer: with
     * {@link PageCache#WRITE_THROUGH} every write, with {@link PageCache#WRITE_BACK} every
     * write-back of up to 1 MiB, which a writer feels at fsync, at close, or once the kernel's
     * dirty pages reach their limit.
     */
    public synchronized Sickness slowWrites(Duration extra) {
        return sicken("slow-writes " + nanos(extra));
    }

    /** Both slownesses lifted: syncs and writes that wait go on at once. */
    public synchronized Sickness healSlow() {
        sicken("slow 0");
        return sicken("slow-writes 0");
    }

    /**
     * The disk is full: what needs a new block fails with ENOSPC until {@link #freeSpace()}. What
     * the writer sees depends on the {@link PageCache}; docs/forgetful-disk.md has each call's
     * outcome. Reads, overwrites in place, syncs of what was written, deletes and renames work,
     * but deleting frees no space here: only {@link #freeSpace()} does.
     */
    public synchronized Sickness fillUp() {
        return sicken("full on");
    }

    /** Space is back: writes and creates succeed again. */
    public synchronized Sickness freeSpace() {
        return sicken("full off");
    }

    /** What ails the disk now. */
    public synchronized Sickness sickness() {
        return sicken("sick");
    }

    private Sickness sicken(String command) {
        requireOpen();
        return Sickness.parse(daemon.sicken(command));
    }

    private static long nanos(Duration extra) {
        if (extra.isNegative()) {
            throw new IllegalArgumentException("a disk cannot be faster than itself: " + extra);
        }
        return extra.toNanos();
    }

    /** What a power cut would take away now. */
    public synchronized Unsynced unsynced() {
        requireOpen();
        return Unsynced.parse(daemon.status());
    }

    /** Unmounts, keeping everything, and moves the files back into the data dir. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (daemon != null) {
                daemon.stop();
                daemon = null;
            }
            moveOut();
        } finally {
            if (registration != null) {
                registration.deregister();
            }
        }
    }

    private ForgetfsDaemon startDaemon() {
        // left over only where an undo failed (the daemon's log says which): nothing refers to it
        TempDirs.deleteRecursively(unlinked);
        createDirectories(unlinked);
        return ForgetfsDaemon.start(program, files, dataDir, unlinked, pageCache, logFile);
    }

    /** What the data dir holds now becomes the disk's synced contents. */
    private void moveIn() {
        createDirectories(files);
        for (Path entry : entries(dataDir)) {
            move(entry, files.resolve(entry.getFileName()));
        }
    }

    private void moveOut() {
        if (!ForgetfsMount.on(dataDir).isEmpty()) {
            throw new IllegalStateException(dataDir + " is still mounted; its files stay in " + files);
        }
        if (Files.isDirectory(files)) {
            for (Path entry : entries(files)) {
                move(entry, dataDir.resolve(entry.getFileName()));
            }
        }
        TempDirs.deleteRecursively(store);
    }

    private void requireOpen() {
        if (closed || daemon == null) {
            throw new IllegalStateException("the forgetful disk on " + dataDir + " is " + (closed ? "closed" : "not mounted"));
        }
    }

    private static List<Path> entries(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to, e);
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    @Override
    public String toString() {
        return "the forgetful disk on " + dataDir;
    }
}
