package dev.msgbench.core.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.cpu.CpuWatch;
import dev.msgbench.core.disk.PowerCut;
import dev.msgbench.core.disk.Sickness;

import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.LocalSecurity;

/**
 * A broker, or a cluster of broker nodes, that the suite started on this machine and owns.
 *
 * <p>Nodes are numbered from 1, as the messages and log files name them ("kafka node 2").
 */
public interface LocalBroker extends AutoCloseable {

    /** What clients connect to, in the system's own syntax, e.g. {@code 127.0.0.1:9092,127.0.0.1:9094}. */
    String url();

    /**
     * What a client given only {@link #url} still needs to reach this broker, as the system's own
     * flags and their values (Pulsar's admin API, on a port of its own); none by default.
     */
    default List<String> clientFlags() {
        return List.of();
    }

    /**
     * Where the system's native tool (scripts/compare-native) connects, when it speaks another
     * protocol than {@link #url}'s clients: RabbitMQ Streams' PerfTest, which speaks AMQP to a
     * stream queue on the same node. {@link #url} by default.
     */
    default String nativeToolUrl() {
        return url();
    }

    int nodeCount();

    /** The broker's own version, for the results. */
    String version();

    /**
     * The nodes that keep the messages on a disk, which a fault of the disk on node=all hits: every
     * node by default; a Pulsar cluster's bookies, not its brokers.
     */
    default List<Integer> diskNodes() {
        return IntStream.rangeClosed(1, nodeCount()).boxed().toList();
    }

    /**
     * The isolated host (--isolate, from 1) node {@code node} runs on, whose link a partition cuts:
     * the node's own by default; a Pulsar cluster's broker K and bookie K share host K.
     */
    default int hostOf(int node) {
        return node;
    }

    /** Where the nodes' logs are written. */
    Path logDir();

    /**
     * A broker started secured (--secure): its certificates, login and password file, all in its
     * temporary folder; null for an open one.
     */
    default LocalSecurity localSecurity() {
        return null;
    }

    /** What a client of this broker needs to reach it: nothing for an open broker. */
    default ClientSecurity clientSecurity() {
        LocalSecurity security = localSecurity();
        return security == null ? ClientSecurity.NONE : security.client();
    }

    /**
     * Where node {@code node} keeps what it stores (Kafka's log.dirs, JetStream's store_dir,
     * RabbitMQ's Mnesia base, Redis's dir): what a fault on the node's disk acts on. It stays
     * across {@link #restartNode} and is removed with the broker at {@link #close}.
     */
    Path dataDir(int node);

    /** The operating system pid of one node, for fault injection and for checks. */
    long pid(int node);

    /** The pids of the processes started for the broker that are not nodes (RabbitMQ's epmd); none by default. */
    default List<Long> helperPids() {
        return List.of();
    }

    /** Every process of the broker as it is when asked (a restarted node has a new pid): whose CPU use a run records. */
    default CpuWatch.BrokerPids processes() {
        return new CpuWatch.BrokerPids() {
            @Override
            public List<Long> nodes() {
                List<Long> pids = new ArrayList<>();
                for (int node = 1; node <= nodeCount(); node++) {
                    pids.add(pid(node));
                }
                return pids;
            }

            @Override
            public List<Long> helpers() {
                return helperPids();
            }
        };
    }

    /** Each node's Cpus_allowed_list as the kernel reports it ("unknown" where it cannot be read), in node order. */
    default List<String> cpusAllowed() {
        List<String> allowed = new ArrayList<>();
        for (int node = 1; node <= nodeCount(); node++) {
            allowed.add(CpuAffinity.allowed(pid(node)).map(CpuList::toString).orElse("unknown"));
        }
        return allowed;
    }

    /** Sends {@code signal} to one node (and to any processes it started). */
    void signal(int node, Signal signal);

    /**
     * Ends one node at once with SIGKILL (it and any processes it started), as a crash would, and
     * returns when it is gone. Its data stays for {@link #restartNode}. Nothing to do for a node
     * that has ended.
     */
    void killNode(int node);

    /**
     * Stops one node cleanly: SIGTERM, up to the broker's stop grace, then SIGKILL; returns when
     * it is gone. Its data stays for {@link #restartNode}.
     */
    void stopNode(int node);

    /**
     * Starts a node that was stopped, killed or has died, on its own config and data, and returns
     * once it serves clients again. What it finds of its data is the system's affair (the
     * launchers' javadoc says what each keeps).
     *
     * @param timeout how long the node may take to serve clients
     * @throws IllegalStateException when the node still runs (a frozen node runs too)
     * @throws dev.msgbench.core.UserError when it exits early or is not ready within
     *         {@code timeout} (naming the node and its log file), or when the broker is closed,
     *         before or during the restart
     */
    void restartNode(int node, Duration timeout);

    /**
     * Starts several nodes as {@link #restartNode} starts one, but all of them before waiting for
     * any: after a power cut of a whole cluster, a node of Kafka's KRaft quorum or of a JetStream
     * cluster is not ready until enough of the others run. By default one after the other, for
     * brokers whose nodes come up alone.
     *
     * @throws dev.msgbench.core.UserError as {@link #restartNode} does, for the first node that fails
     */
    default void restartNodes(List<Integer> nodes, Duration timeout) {
        for (int node : nodes) {
            restartNode(node, timeout);
        }
    }

    /**
     * A power cut of one node: SIGKILL (it and any processes it started), then its forgetful disk
     * forgets what the node never synced, and is mounted afresh, with an empty page cache, for
     * {@link #restartNode}. For a cut of several nodes at once, kill them all first
     * ({@link #killNode}), then cut each: when the power goes, no node acknowledges anything after
     * the first one died.
     *
     * @return what the cut took from the disk
     * @throws IllegalStateException when the broker was started without forgetful disks
     *         ({@link BrokerSpec#forgetfulDisks})
     */
    default PowerCut powerCut(int node) {
        throw new IllegalStateException(this + " runs its nodes on plain disks; node " + node + " cannot lose power");
    }

    /**
     * A slow disk under node {@code node}: every fsync, fdatasync and fsync of a directory of its
     * forgetful disk takes {@code extra} longer until {@link #healDisk}.
     *
     * @return the disk's state now
     * @throws IllegalStateException when the broker was started without forgetful disks
     */
    default Sickness slowDisk(int node, Duration extra) {
        throw plainDisks(node);
    }

    /** Node {@code node}'s disk is fast again: the syncs it holds go on at once. */
    default Sickness healDisk(int node) {
        throw plainDisks(node);
    }

    /**
     * Node {@code node}'s disk is full until {@link #freeDisk}: what needs a new block fails with
     * ENOSPC, in the write(2) itself on a write-through disk ({@link DataDisks#FORGETFUL_WRITE_THROUGH}).
     */
    default Sickness fillDisk(int node) {
        throw plainDisks(node);
    }

    /** Node {@code node}'s disk has space again. */
    default Sickness freeDisk(int node) {
        throw plainDisks(node);
    }

    private IllegalStateException plainDisks(int node) {
        return new IllegalStateException(this + " runs its nodes on plain disks; node " + node + "'s disk cannot ail");
    }

    /**
     * How the node ended, e.g. "exited with status 1" or "killed by signal 9 (SIGKILL)"; null
     * while it runs. For messages that must say the broker went away rather than guess why a
     * client lost its connection.
     */
    String exitDescription(int node);

    /**
     * Stops every node and removes the temporary directories. Idempotent and thread-safe; safe to
     * call from a shutdown hook. Never throws a checked exception.
     */
    @Override
    void close();
}
