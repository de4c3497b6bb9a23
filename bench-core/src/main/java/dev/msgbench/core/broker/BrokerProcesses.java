package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.msgbench.core.UserError;

/**
 * The processes of one local broker and its temp dir, which live and die together: stopped at
 * once (a cluster stopped node by node loses its quorum and hangs), the temp dir removed, the
 * shutdown-hook registration dropped. {@link AbstractLocalBroker} keeps one for every launcher,
 * so that stopping is written once. Thread-safe: the shutdown hook may close it while a start
 * runs.
 */
public final class BrokerProcesses {

    /** How the processes stop: a broker whose nodes must go down in a particular way supplies its own. */
    @FunctionalInterface
    public interface Stopping {
        /**
         * Stops every process, giving each up to {@code grace} to exit cleanly.
         *
         * @param nodes   the nodes, node 1 first
         * @param helpers what the nodes need and must outlive them (RabbitMQ's epmd)
         * @throws RuntimeException the first failure, later ones attached
         */
        void stop(List<ManagedProcess> nodes, List<ManagedProcess> helpers, Duration grace);
    }

    private final Path tempDir;
    private final Path logDir;
    private final Stopping stopping;
    /** Nodes in order: node n is element n - 1. */
    private final List<ManagedProcess> processes = new ArrayList<>();
    private final List<ManagedProcess> helpers = new ArrayList<>();
    private CleanupRegistry.Registration registration;
    private boolean closed;

    /** @param logDir kept by {@link #abort} when it lies inside {@code tempDir}: errors point there */
    public BrokerProcesses(Path tempDir, Path logDir, Stopping stopping) {
        this.tempDir = tempDir;
        this.logDir = logDir;
        this.stopping = stopping;
    }

    /**
     * Makes Ctrl+C and JVM exit stop {@code broker}; the first thing a start does. Called again, it
     * registers the broker anew, as the newest resource, which the hook closes first: after
     * something the broker's nodes need was registered (their disks).
     */
    public synchronized void registerForCleanup(String name, AutoCloseable broker) {
        CleanupRegistry.Registration previous = registration;
        registration = CleanupRegistry.register(name, broker);
        if (previous != null) {
            previous.deregister();
        }
    }

    /**
     * Registers {@code broker} for cleanup and runs the steps of its start; when a step fails,
     * stops and removes whatever the steps started before rethrowing.
     */
    public void start(String name, AutoCloseable broker, Duration abortGrace, Runnable steps) {
        registerForCleanup(name, broker);
        try {
            steps.run();
        } catch (RuntimeException | Error e) {
            try {
                abort(abortGrace);
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** Throws when the broker was closed during its start (Ctrl+C): start nothing more. */
    public synchronized void requireOpen(String broker) {
        if (closed) {
            throw new UserError(broker + " was stopped during its start");
        }
    }

    /** The next node, just started; stopped at once if the broker was closed meanwhile. */
    public synchronized void add(ManagedProcess process) {
        stopIfClosed(process);
        processes.add(process);
    }

    /**
     * A process the nodes need that is not a node, just started; stopped at once if the broker
     * was closed meanwhile.
     */
    public synchronized void addHelper(ManagedProcess process) {
        stopIfClosed(process);
        helpers.add(process);
    }

    private void stopIfClosed(ManagedProcess process) {
        if (closed) {
            process.stop(Duration.ZERO);
            throw new UserError(process.name() + " was stopped during its start");
        }
    }

    /**
     * Node {@code node} (from 1), started again, takes the place of its ended process. When the
     * broker was closed meanwhile (Ctrl+C during a restart), the new process is stopped at once,
     * the temp dir removed again (the start may have recreated parts of it after the close
     * removed it), and this throws.
     *
     * @throws UserError when the broker was closed
     */
    public synchronized void replace(int node, ManagedProcess process) {
        if (closed) {
            UserError stopped = new UserError(process.name() + " was stopped during its restart");
            try {
                process.stop(Duration.ZERO);
            } catch (RuntimeException e) {
                stopped.addSuppressed(e);
            }
            throw removeAgain(stopped);
        }
        node(node);
        processes.set(node - 1, process);
    }

    /**
     * A restart whose process failed to start: when the broker was closed meanwhile, the failure
     * becomes "stopped during its restart" and the temp dir is removed again, as in {@link #replace};
     * otherwise {@code failure} is returned as it is.
     */
    public synchronized RuntimeException failedRestart(String name, RuntimeException failure) {
        return closed ? removeAgain(new UserError(name + " was stopped during its restart", failure)) : failure;
    }

    private UserError removeAgain(UserError stopped) {
        RuntimeException cleanup = removeTempDir(tempDir, logDir, false);
        if (cleanup != null) {
            stopped.addSuppressed(cleanup);
        }
        return stopped;
    }

    public synchronized List<ManagedProcess> all() {
        return List.copyOf(processes);
    }

    public synchronized List<ManagedProcess> helpers() {
        return List.copyOf(helpers);
    }

    /** Node {@code node}, counted from 1. */
    public synchronized ManagedProcess node(int node) {
        if (node < 1 || node > processes.size()) {
            throw new IllegalArgumentException("node must be 1 to " + processes.size() + ", got " + node);
        }
        return processes.get(node - 1);
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Stops every node together and removes the temp dir; does nothing the second time. */
    public synchronized void close(Duration grace) {
        if (closed) {
            return;
        }
        closed = true;
        finish(addTo(stopAll(grace), removeTempDir(tempDir, logDir, false)));
    }

    /**
     * After a failed start: stops what was started and removes the temp dir, except the logs when
     * they are in it, since the error message names them. Nothing to do when a close (Ctrl+C)
     * failed the start: it stopped and removed everything already.
     */
    public synchronized void abort(Duration grace) {
        if (closed) {
            return;
        }
        closed = true;
        finish(addTo(stopAll(grace), removeTempDir(tempDir, logDir, true)));
    }

    /**
     * Deletes a broker's temp dir; with {@code keepLogs}, the logs stay when they live inside it
     * (a failed start's error message names them). Returns the failure instead of throwing, so
     * that a caller stopping several things can keep the first and attach the rest.
     */
    public static RuntimeException removeTempDir(Path tempDir, Path logDir, boolean keepLogs) {
        try {
            if (keepLogs && logDir.startsWith(tempDir)) {
                try (Stream<Path> entries = Files.list(tempDir)) {
                    for (Path entry : entries.filter(e -> !logDir.startsWith(e)).collect(Collectors.toList())) {
                        TempDirs.deleteRecursively(entry);
                    }
                }
            } else {
                TempDirs.deleteRecursively(tempDir);
            }
            return null;
        } catch (IOException e) {
            return new UncheckedIOException("cannot clean up " + tempDir, e);
        } catch (RuntimeException e) {
            return e;
        }
    }

    private RuntimeException stopAll(Duration grace) {
        try {
            stopping.stop(List.copyOf(processes), List.copyOf(helpers), grace);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private void finish(RuntimeException failure) {
        if (registration != null) {
            registration.deregister();
            registration = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Keeps the first failure and attaches later ones, as everywhere in the suite. */
    public static RuntimeException addTo(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        if (next != null) {
            first.addSuppressed(next);
        }
        return first;
    }
}
