package dev.msgbench.core.time;

import java.util.concurrent.locks.LockSupport;

/**
 * {@link System#nanoTime()} with a sleep that parks while the deadline is far and yields
 * close to it.
 *
 * <p>IMPLEMENTATION NOTES: parkNanos overshoots by the kernel's timer slack (about 50 us on
 * Linux) and by however late the kernel runs the woken thread, which would show up as send
 * delay. So we park only until the spin window before the deadline and then spin. The spin
 * yields rather than burning the core, because on a small machine the broker under test needs
 * that core more than we do.
 */
final class SystemNanoClock implements NanoClock {

    /** Longer than the usual park overshoot, short enough to keep idle CPU use low. */
    static final long DEFAULT_SPIN_WINDOW_NANOS = 80_000;

    static final SystemNanoClock INSTANCE = new SystemNanoClock(DEFAULT_SPIN_WINDOW_NANOS);

    private final long spinWindowNanos;

    SystemNanoClock(long spinWindowNanos) {
        if (spinWindowNanos < 0) {
            throw new IllegalArgumentException("spin window must be >= 0: " + spinWindowNanos);
        }
        this.spinWindowNanos = spinWindowNanos;
    }

    @Override
    public long spinWindowNanos() {
        return spinWindowNanos;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        long remaining;
        while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
            if (remaining > spinWindowNanos) {
                LockSupport.parkNanos(remaining - spinWindowNanos);
            } else {
                Thread.yield();
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
