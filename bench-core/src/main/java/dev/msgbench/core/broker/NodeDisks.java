package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.msgbench.core.UserError;
import dev.msgbench.core.disk.ForgetfulDisk;

/**
 * The forgetful disks under a local broker's nodes ({@link BrokerSpec#forgetfulDisks}): each is
 * mounted over its node's data dir just before the node's first start, so that what the launcher
 * wrote there before (Kafka's formatted storage) counts as synced, and so does what the node wrote
 * until the broker served clients ({@link #settle}); it stays through restarts and power cuts,
 * and is closed once the nodes have stopped, before the temp dir goes. Thread-safe: the start,
 * the fault injector and the shutdown hook all reach it.
 */
final class NodeDisks {

    private final DataDisks kind;
    private final boolean forgetful;
    private final Map<Integer, ForgetfulDisk> disks = new TreeMap<>();
    private boolean closed;

    /** @param kind {@link DataDisks#PLAIN}: then it never mounts anything */
    NodeDisks(DataDisks kind) {
        this.kind = kind;
        this.forgetful = kind.forgetful();
    }

    /**
     * Mounts node {@code node}'s disk over {@code dataDir} unless it has one already or the disks
     * are plain.
     *
     * @return whether it mounted one now
     * @throws UserError when this machine cannot mount one (not root, no FUSE), or the disks were
     *                   closed (Ctrl+C during the start)
     */
    synchronized boolean mount(int node, Path dataDir, Path logFile) {
        if (!forgetful || disks.containsKey(node)) {
            return false;
        }
        if (closed) {
            throw new UserError("the forgetful disk of node " + node + " was not mounted: the broker was stopped "
                    + "during its start");
        }
        disks.put(node, ForgetfulDisk.mount(dataDir, logFile, kind.pageCache()));
        return true;
    }

    /**
     * Makes durable everything the nodes wrote so far: an fsync of every file and directory on
     * every disk, through the mount, as the broker itself would. Called once the broker serves
     * clients, it stands for a machine that has run long enough for the kernel's write-back (30 s
     * on Linux) to have written out what the broker wrote while it started: otherwise a power cut
     * seconds after the start takes files the broker writes at boot and never syncs, and a broker
     * may not boot without them (RabbitMQ 3.10 refuses its empty feature-flags file). What the run
     * then writes is at stake, its topics and streams included.
     */
    void settle() {
        for (ForgetfulDisk disk : all()) {
            try {
                FileTrees.walk(disk.dataDir(), file -> {
                    if (Files.isRegularFile(file)) {
                        force(file);
                    }
                }, NodeDisks::force);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot sync " + disk, e);
            }
        }
    }

    /** Linux syncs a file or a directory opened read-only: enough for fsync, and never in a writer's way. */
    private static void force(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (NoSuchFileException e) {
            // removed by the node since it was listed: nothing to sync
        }
    }

    /** @throws IllegalStateException when node {@code node} has no forgetful disk (not asked for, or not started yet) */
    synchronized ForgetfulDisk of(int node) {
        return of(node, "cannot lose power");
    }

    /**
     * @param cannot what a node on a plain disk cannot do, for the message: "cannot lose power"
     * @throws IllegalStateException when node {@code node} has no forgetful disk (not asked for, or not started yet)
     */
    synchronized ForgetfulDisk of(int node, String cannot) {
        ForgetfulDisk disk = disks.get(node);
        if (disk == null) {
            throw new IllegalStateException(forgetful ? "node " + node + " has no forgetful disk: it was never started"
                    : "the broker runs on plain disks (no forgetful disks asked for); node " + node + " " + cannot);
        }
        return disk;
    }

    /**
     * Unmounts every disk, keeping the files (the nodes must have stopped); mounts nothing after.
     * Returns the first failure, later ones attached, instead of throwing.
     */
    synchronized RuntimeException close() {
        closed = true;
        RuntimeException failure = null;
        for (ForgetfulDisk disk : new ArrayList<>(disks.values())) {
            try {
                disk.close();
            } catch (RuntimeException e) {
                failure = BrokerProcesses.addTo(failure, e);
            }
        }
        return failure;
    }

    /** The mounted disks, node 1 first. */
    synchronized List<ForgetfulDisk> all() {
        return List.copyOf(disks.values());
    }
}
