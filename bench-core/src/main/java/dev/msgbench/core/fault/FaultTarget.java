package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.disk.PowerCut;

/**
 * What the {@link FaultInjector} acts on: the nodes of a broker the suite started, numbered
 * from 1. The method names are those of the local brokers, which implement them.
 */
public interface FaultTarget {

    int nodeCount();

    /**
     * The nodes whose disk a fault of the disk on node=all hits ({@link dev.msgbench.core.broker.LocalBroker#diskNodes}):
     * every node by default.
     */
    default List<Integer> diskNodes() {
        return IntStream.rangeClosed(1, nodeCount()).boxed().toList();
    }

    /** The node leading the run's partition, stream or queue; empty when none leads now. */
    OptionalInt leaderNode() throws Exception;

    /**
     * The node coordinating the run's transactions (Kafka: of its first transactional id); empty
     * where the run commits none, or none coordinates now.
     */
    default OptionalInt coordinatorNode() throws Exception {
        return OptionalInt.empty();
    }

    /** Sends {@code signal} to one node (a pause is STOP, then CONT). */
    void signal(int node, Signal signal);

    /** SIGKILL; returns when the process is gone. */
    void killNode(int node) throws Exception;

    /** A clean stop; returns when the process is gone. */
    void stopNode(int node) throws Exception;

    /**
     * Starts a stopped or killed node again on its own data; returns when it serves clients.
     *
     * @throws Exception when it does not within {@code timeout}
     */
    void restartNode(int node, Duration timeout) throws Exception;

    /**
     * Starts the nodes, stopped or killed, all at once, and returns when each serves clients: a
     * cluster that lost every node at once needs a quorum back before any one node is ready. By
     * default one after the other, for targets whose nodes come up alone.
     *
     * @throws Exception when they do not within {@code timeout}
     */
    default void restartNodes(List<Integer> nodes, Duration timeout) throws Exception {
        for (int node : nodes) {
            restartNode(node, timeout);
        }
    }

    /**
     * A power cut of node {@code node}: SIGKILL, then its disk loses everything it never made
     * durable; it stays down for {@link #restartNodes}. Only where the broker runs its nodes on
     * forgetful disks.
     *
     * @return what the cut took from the node's disk
     */
    default PowerCut powerCut(int node) throws Exception {
        throw new IllegalStateException("node " + node + "'s data is not on a forgetful disk");
    }

    /**
     * Every durable write of node {@code node}'s disk (fsync and friends) takes {@code extra} longer
     * until {@link #healDisk}; the node runs on. Only where the broker runs its nodes on forgetful
     * disks.
     */
    default void slowDisk(int node, Duration extra) throws Exception {
        throw new IllegalStateException("node " + node + "'s data is not on a forgetful disk");
    }

    /** Node {@code node}'s disk is fast again. */
    default void healDisk(int node) throws Exception {
        throw new IllegalStateException("node " + node + "'s data is not on a forgetful disk");
    }

    /** Node {@code node}'s disk is full (writes that need space fail with ENOSPC) until {@link #freeDisk}. */
    default void fillDisk(int node) throws Exception {
        throw new IllegalStateException("node " + node + "'s data is not on a forgetful disk");
    }

    /** Node {@code node}'s disk has space again. */
    default void freeDisk(int node) throws Exception {
        throw new IllegalStateException("node " + node + "'s data is not on a forgetful disk");
    }

    /**
     * Cuts node {@code node}'s link ({@code cut}) or mends it: only where the nodes run on hosts of
     * their own (--isolate).
     */
    default void partition(int node, boolean cut) {
        throw new IllegalStateException("node " + node + " has no link of its own to cut: the run is not isolated");
    }

    /** For runs with no broker of the suite's own (--url, in-process systems): only exec faults. */
    FaultTarget NONE = new FaultTarget() {
        @Override
        public int nodeCount() {
            return 0;
        }

        @Override
        public OptionalInt leaderNode() {
            return OptionalInt.empty();
        }

        @Override
        public void signal(int node, Signal signal) {
            throw new IllegalStateException("no local broker to signal");
        }

        @Override
        public void killNode(int node) {
            throw new IllegalStateException("no local broker to kill");
        }

        @Override
        public void stopNode(int node) {
            throw new IllegalStateException("no local broker to stop");
        }

        @Override
        public void restartNode(int node, Duration timeout) {
            throw new IllegalStateException("no local broker to restart");
        }
    };
}
