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

    /**
     * How long before a deadline {@link #sleepUntil} stops sleeping and spins; 0 for a clock
     * that does not sleep on a real timer. Recorded with each result.
     */
    default long spinWindowNanos() {
        return 0;
    }

    /**
     * How long {@link #sleepUntil} has spun so far, all threads together: the CPU time the spin
     * window cost. 0 for a clock that does not spin.
     */
    default long spunNanos() {
        return 0;
    }

    /** The system clock with the default spin window. */
    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }

    /**
     * The system clock spinning (and yielding the core) for the last {@code spinWindowNanos}
     * before each deadline: longer keeps a schedule better where the kernel wakes sleeping
     * threads late, and costs CPU (a whole core once it exceeds the interval between sends).
     */
    static NanoClock system(long spinWindowNanos) {
        return new SystemNanoClock(spinWindowNanos);
    }
}
