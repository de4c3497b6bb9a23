package dev.msgbench.core.broker;

/**
 * Signals the suite sends to a broker node, for stopping it and for fault injection.
 *
 * <p>TERM and KILL go through {@link ProcessHandle#destroy()} and
 * {@link ProcessHandle#destroyForcibly()}; the JDK has no API for STOP and CONT, so those run
 * the {@code kill} command.
 */
public enum Signal {
    /** Ask the node to shut down cleanly. */
    TERM,
    /** End the node at once; it cannot catch or delay this. */
    KILL,
    /** Freeze the node: it keeps its sockets open but answers nothing, like a long GC pause. */
    STOP,
    /** Let a frozen node run again. */
    CONT
}
