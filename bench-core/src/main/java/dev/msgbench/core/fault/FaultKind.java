package dev.msgbench.core.fault;

import java.util.Locale;

/** What a fault does to a node, or, for {@link #EXEC}, the user's own command. */
public enum FaultKind {
    /** SIGSTOP, then SIGCONT after the pause: the node keeps its sockets and answers nothing. */
    PAUSE,
    /** SIGKILL; started again on its own data after restart-after, unless never. */
    KILL,
    /** A clean stop, then a start on its own data. */
    RESTART,
    /** A command of the user's, for clusters the suite did not start. */
    EXEC,
    /** The node's link cut at the switch (--isolate), then mended after the partition's length. */
    PARTITION,
    /**
     * SIGKILL, then the node's disk loses what was never made durable (a forgetful disk), then a
     * start on what the disk kept after restart-after: a machine that lost its power.
     */
    POWER_LOSS,
    /**
     * Every durable write of the node's disk (fsync and friends) takes a given delay longer, for a
     * given time: a sick disk, the gray failure that fails nothing.
     */
    SLOW_DISK,
    /** The node's disk is full for a given time: writes that need space fail with ENOSPC, then space returns. */
    DISK_FULL;

    /**
     * As written in --fault and in the results: pause, kill, restart, exec, partition, power-loss,
     * slow-disk, disk-full.
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Whether it acts on the node's disk, which must then be a forgetful disk from the node's first
     * write on; the system must keep its messages there.
     */
    public boolean onDisk() {
        return this == POWER_LOSS || sickensDisk();
    }

    /** A slow or a full disk: the node runs on, its disk ails for a while ({@code :for=}) and heals. */
    public boolean sickensDisk() {
        return this == SLOW_DISK || this == DISK_FULL;
    }

    /** Whether it may hit every node at once ({@code :node=all}): only the faults of a node's disk. */
    public boolean takesAllNodes() {
        return onDisk();
    }

    /**
     * Whether the node's process goes away (a kill, a restart, a power loss), taking with it what
     * it held in memory: the run's losses are the fault's before they are anything else.
     */
    public boolean stopsNode() {
        return this == KILL || this == RESTART || this == POWER_LOSS;
    }

    /** Whether the node is started again after restart-after: a kill, unless never, and a power loss. */
    public boolean restarts() {
        return this == KILL || this == POWER_LOSS;
    }

    /**
     * Pause and partition last a given time ({@code pause=2s@10s}), a sick disk too
     * ({@code :for=5s}), and are undone after it.
     */
    public boolean lasts() {
        return this == PAUSE || this == PARTITION || sickensDisk();
    }
}
