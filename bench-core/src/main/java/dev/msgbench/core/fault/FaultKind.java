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
    PARTITION;

    /** As written in --fault and in the results: pause, kill, restart, exec, partition. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Pause and partition last a given time ({@code pause=2s@10s}) and are undone after it. */
    public boolean lasts() {
        return this == PAUSE || this == PARTITION;
    }
}
