package dev.msgbench.core.time;

/**
 * The intended send times of one producer stream, fixed before the run starts: the next send
 * happens at {@link #next()} whatever became of earlier sends (open loop).
 */
public interface Schedule {

    /** The intended send time of the next message, in {@link NanoClock} nanoseconds. */
    long next();
}
