package dev.msgbench.core.time;

/**
 * The one clock of a run: send and receive times both come from it, in this JVM, so latency
 * never mixes two machines' clocks. Tests substitute a manual clock to drive the schedule
 * without waiting.
 */
public interface NanoClock {

    /** Monotonic time in nanoseconds, comparable only with other values of this clock. */
    long nanoTime();

    /** Returns once {@link #nanoTime()} has reached {@code deadlineNanos}. */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}
