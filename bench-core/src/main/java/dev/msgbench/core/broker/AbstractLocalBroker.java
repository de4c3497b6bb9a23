package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.msgbench.core.UserError;
import dev.msgbench.core.disk.ForgetfulDisk;
import dev.msgbench.core.disk.PowerCut;
import dev.msgbench.core.disk.Sickness;
import dev.msgbench.core.disk.StaleMounts;

/**
 * What every launcher of a local broker shares: its processes and temp dir (one
 * {@link BrokerProcesses}), the start sequence, node numbers, pid, signal and close. A subclass
 * adds only what is its system's: the command that starts one node, config files, readiness
 * probes, the version.
 *
 * <p>A start reaps what dead runs left, makes the broker (its ports and temp dir), registers it
 * for cleanup, creates the log dir and runs {@link #bringUp} within the start timeout. When any
 * step fails, whatever was started is stopped and the temp dir removed; logs inside it are kept,
 * since the error names them.
 *
 * <p>Every node starts through {@link #launch}, that is through {@link #startNode} on its own
 * config and data, so that restarting one node later (fault injection, {@link #restartNode}) has
 * one place to go; a subclass adds only {@link #awaitNodeReady}, its probes for one node.
 *
 * <p>Asked for forgetful disks ({@link BrokerSpec#forgetfulDisks}), {@link #launch} mounts one over
 * the node's {@link #dataDir} before the node's first start (what the launcher wrote there before
 * counts as synced, and so does what the nodes wrote until the broker served clients: see
 * {@code NodeDisks.settle}), {@link #powerCut} cuts it, {@link #slowDisk} and {@link #fillDisk} make
 * it ail until healed, and close unmounts them after the nodes stopped.
 */
public abstract class AbstractLocalBroker implements LocalBroker {

    private final int nodeCount;
    private final Path tempDir;
    private final Path logDir;
    private final Duration stopGrace;
    private final Duration abortGrace;
    private final BrokerProcesses processes;
    private final NodeDisks disks;

    /**
     * @param broker     its nodes, log dir and whether the nodes run on forgetful disks
     * @param tempDir    the run's data, configs and (without a log dir) logs; removed at close
     * @param stopGrace  how long a node may take to stop cleanly at close before it is killed
     * @param abortGrace the same after a failed start, whose data is thrown away: shorter
     */
    protected AbstractLocalBroker(BrokerSpec broker, Path tempDir, Duration stopGrace, Duration abortGrace) {
        this(broker.nodes(), tempDir, broker.logDir(), stopGrace, abortGrace, broker.dataDisks());
    }

    /**
     * @param nodeCount  the nodes it will start, numbered 1 to nodeCount
     * @param tempDir    the run's data, configs and (without {@code logDir}) logs; removed at close
     * @param logDir     where the nodes' logs go, kept at close; null for {@code tempDir/logs}
     * @param stopGrace  how long a node may take to stop cleanly at close before it is killed
     * @param abortGrace the same after a failed start, whose data is thrown away: shorter
     */
    protected AbstractLocalBroker(int nodeCount, Path tempDir, Path logDir, Duration stopGrace, Duration abortGrace) {
        this(nodeCount, tempDir, logDir, stopGrace, abortGrace, DataDisks.PLAIN);
    }

    /**
     * As the constructor above, for a broker whose node count is not --brokers (a Pulsar cluster's
     * brokers and bookies) but whose nodes may run on forgetful disks ({@link #onDataDisk}).
     *
     * @param dataDisks what the nodes that keep data ({@link #onDataDisk}) keep it on
     */
    protected AbstractLocalBroker(int nodeCount, Path tempDir, Path logDir, Duration stopGrace, Duration abortGrace,
                                  DataDisks dataDisks) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1, got " + nodeCount);
        }
        this.nodeCount = nodeCount;
        this.tempDir = tempDir;
        this.logDir = logDir != null ? logDir.toAbsolutePath() : tempDir.resolve("logs");
        this.stopGrace = stopGrace;
        this.abortGrace = abortGrace;
        this.disks = new NodeDisks(dataDisks);
        this.processes = new BrokerProcesses(tempDir, this.logDir, this::stopAndUnmount);
    }

    /**
     * Starts a broker and returns once it serves clients.
     *
     * @param system       names its temp dir: {@code tempParent/msgbench-SYSTEM-...}
     * @param startTimeout the budget of the whole start, given to {@link #bringUp}
     * @param create       the subclass's constructor, given the temp dir
     * @throws dev.msgbench.core.UserError when a node fails or is not ready in time; whatever was
     *                                     started is stopped first
     */
    protected static <B extends AbstractLocalBroker> B startBroker(String system, Path tempParent,
                                                                 Duration startTimeout, Function<Path, B> create) {
        // first: a dead forgetful disk's mount inside a stale temp dir would make its deletion fail
        StaleMounts.reap();
        StaleReaper.reapDefault();
        Readiness budget = Readiness.within(startTimeout);
        B broker = create.apply(TempDirs.create(tempParent, system));
        AbstractLocalBroker base = broker; // a type variable does not show the private members
        base.processes.start(base.toString(), base, base.abortGrace, () -> {
            base.createLogDir();
            base.bringUp(budget);
            base.disks.settle();
        });
        return broker;
    }

    /**
     * The system's part of a start: writes what the nodes need, starts every node through
     * {@link #launch} and waits, within {@code budget}, until the broker serves clients.
     */
    protected abstract void bringUp(Readiness budget);

    /**
     * Starts the process of node {@code node} (from 1) on its config and data dir, and returns at
     * once; called through {@link #launch}, which keeps it.
     */
    protected abstract ManagedProcess startNode(int node);

    /**
     * Whether node {@code node}'s data dir goes on the data disks asked for (a forgetful disk, when
     * they are): every node by default; false for a node that keeps no message, such as a Pulsar
     * cluster's broker, whose dir would only cost a disk.
     */
    protected boolean onDataDisk(int node) {
        return true;
    }

    /** The nodes {@link #onDataDisk} puts on the data disks. */
    @Override
    public final List<Integer> diskNodes() {
        List<Integer> nodes = new ArrayList<>();
        for (int node = 1; node <= nodeCount; node++) {
            if (onDataDisk(node)) {
                nodes.add(node);
            }
        }
        return List.copyOf(nodes);
    }

    /**
     * Starts node {@code node} and keeps its process as that node; nodes start in order, node 1
     * first. Refused once the broker is closed (Ctrl+C during the start). With forgetful disks, the
     * node's disk is mounted first.
     */
    protected final ManagedProcess launch(int node) {
        checkNode(node);
        processes.requireOpen(toString());
        if (onDataDisk(node) && disks.mount(node, dataDir(node), logDir.resolve("forgetfs-" + node + ".log"))) {
            // the disk registered for cleanup after the broker; the broker must come first at exit, so
            // that its nodes stop before their disks are unmounted
            processes.registerForCleanup(toString(), this);
        }
        ManagedProcess process = startNode(node);
        processes.add(process);
        return process;
    }

    /**
     * Waits, within {@code budget}, until node {@code node}, just started again by
     * {@link #restartNode}, serves clients: the system's own readiness probes for one node.
     *
     * @throws dev.msgbench.core.UserError on timeout or when the node exits, naming its log file
     */
    protected abstract void awaitNodeReady(int node, Readiness budget);

    /** Starts every node, node 1 first, without waiting for any: for systems whose nodes start together. */
    protected final void launchAll() {
        for (int node = 1; node <= nodeCount; node++) {
            launch(node);
        }
    }

    /**
     * Starts a process the nodes need that is not a node (RabbitMQ's epmd); it is stopped after
     * the nodes. Refused once the broker is closed.
     */
    protected final ManagedProcess startHelper(NativeCommand command) {
        processes.requireOpen(toString());
        ManagedProcess process = command.start();
        processes.addHelper(process);
        return process;
    }

    /** The nodes started so far, node 1 first: what a readiness wait watches for an early exit. */
    protected final List<ManagedProcess> startedNodes() {
        return processes.all();
    }

    /**
     * Stops the processes at close (with the stop grace) or after a failed start (the abort
     * grace): by default every node together, then the helpers. A system whose nodes must be
     * stopped its own way overrides it.
     */
    protected void stopProcesses(List<ManagedProcess> nodes, List<ManagedProcess> helpers, Duration grace) {
        RuntimeException failure = null;
        try {
            ManagedProcess.stopAll(nodes, grace);
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            ManagedProcess.stopAll(helpers, grace);
        } catch (RuntimeException e) {
            failure = BrokerProcesses.addTo(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Close and a failed start: the processes stop as {@link #stopProcesses} says, then the disks are unmounted. */
    private void stopAndUnmount(List<ManagedProcess> nodes, List<ManagedProcess> helpers, Duration grace) {
        RuntimeException failure = null;
        try {
            stopProcesses(nodes, helpers, grace);
        } catch (RuntimeException e) {
            failure = e;
        }
        failure = BrokerProcesses.addTo(failure, disks.close());
        if (failure != null) {
            throw failure;
        }
    }

    /** @throws IllegalArgumentException unless {@code node} is one of this broker's, counted from 1 */
    protected final int checkNode(int node) {
        if (node < 1 || node > nodeCount) {
            throw new IllegalArgumentException("node must be " + (nodeCount == 1 ? "1" : "1 to " + nodeCount)
                    + ", got " + node);
        }
        return node;
    }

    protected final Path tempDir() {
        return tempDir;
    }

    /** "1 node" or "3 nodes", for {@link #toString}. */
    protected final String nodesText() {
        return nodeCount + (nodeCount == 1 ? " node" : " nodes");
    }

    @Override
    public final int nodeCount() {
        return nodeCount;
    }

    @Override
    public final Path logDir() {
        return logDir;
    }

    @Override
    public final long pid(int node) {
        return processes.node(checkNode(node)).pid();
    }

    @Override
    public final List<Long> helperPids() {
        return processes.helpers().stream().map(ManagedProcess::pid).toList();
    }

    @Override
    public final void signal(int node, Signal signal) {
        processes.node(checkNode(node)).signal(signal);
    }

    @Override
    public final void killNode(int node) {
        processes.node(checkNode(node)).kill();
    }

    /** Through {@link #stopProcesses}, so that a node stops as it does at close. */
    @Override
    public final void stopNode(int node) {
        stopProcesses(List.of(processes.node(checkNode(node))), List.of(), stopGrace);
    }

    @Override
    public final void restartNode(int node, Duration timeout) {
        restartNodes(List.of(node), timeout);
    }

    /** Every node started before the first wait, all waits within one {@code timeout}. */
    @Override
    public final void restartNodes(List<Integer> nodes, Duration timeout) {
        Readiness budget = Readiness.within(timeout);
        List<String> names = new ArrayList<>();
        for (int node : nodes) {
            names.add(relaunch(node));
        }
        for (int i = 0; i < nodes.size(); i++) {
            try {
                awaitNodeReady(nodes.get(i), budget);
            } catch (UserError e) {
                throw processes.isClosed() ? new UserError(names.get(i) + " was stopped during its restart", e) : e;
            }
        }
    }

    /** Starts an ended node again in its place, without waiting for it; returns its name. */
    private String relaunch(int node) {
        ManagedProcess ended = processes.node(checkNode(node));
        if (processes.isClosed()) {
            throw new UserError(this + " is closed; " + ended.name() + " is not restarted");
        }
        if (ended.isAlive()) {
            throw new IllegalStateException(ended.name() + " (pid " + ended.pid() + ") still runs; stop or kill it "
                    + "before restarting it");
        }
        // a node that died by itself still has its marker; a stop of an ended process only drops it
        ended.stop(Duration.ZERO);
        ManagedProcess started;
        try {
            started = startNode(node);
        } catch (RuntimeException e) {
            throw processes.failedRestart(ended.name(), e);
        }
        processes.replace(node, started);
        return ended.name();
    }

    /**
     * SIGKILL, then the node's forgetful disk forgets what the node never synced and is mounted
     * afresh; the node stays down for {@link #restartNode}.
     */
    @Override
    public final PowerCut powerCut(int node) {
        ForgetfulDisk disk = disks.of(checkNode(node));
        killNode(node);
        return disk.powerCut();
    }

    @Override
    public final Sickness slowDisk(int node, Duration extra) {
        return sickDisk(node).slowDurableOps(extra);
    }

    @Override
    public final Sickness healDisk(int node) {
        return sickDisk(node).healSlow();
    }

    @Override
    public final Sickness fillDisk(int node) {
        return sickDisk(node).fillUp();
    }

    @Override
    public final Sickness freeDisk(int node) {
        return sickDisk(node).freeSpace();
    }

    private ForgetfulDisk sickDisk(int node) {
        return disks.of(checkNode(node), "cannot have a slow or full disk");
    }

    @Override
    public final String exitDescription(int node) {
        return processes.node(checkNode(node)).exitDescription();
    }

    /** Stops every node (see {@link #stopProcesses}) and removes the temp dir; the second call does nothing. */
    @Override
    public final void close() {
        processes.close(stopGrace);
    }

    /** Names the broker in messages and in the cleanup registry: system, nodes, address. */
    @Override
    public abstract String toString();

    /** A readiness probe: something accepts TCP connections on {@code port} of the loopback address. */
    protected static boolean accepts(int port) {
        return accepts(FreePorts.LOOPBACK.getHostAddress(), port);
    }

    /** @param host 127.0.0.1, or a node's host under --isolate */
    protected static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void createLogDir() {
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + logDir, e);
        }
    }
}
