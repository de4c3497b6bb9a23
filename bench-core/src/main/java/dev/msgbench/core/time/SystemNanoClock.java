package dev.msgbench.core.time;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link System#nanoTime()} with a sleep that parks while the deadline is far and yields
 * close to it.
 *
 * <p>IMPLEMENTATION NOTES: parkNanos overshoots by the kernel's timer slack (about 50 us on
 * Linux) and by however late the kernel runs the woken thread, which would show up as send
 * delay. So we park only until the spin window before the deadline and then spin. The spin
 * yields rather than burning the core, because on a small machine the broker under test needs
 * that core more than we do. Still, a yield gives the core away only to a thread waiting for
 * that very core: the time spun is counted ({@link #spunNanos}), so that a result can say when
 * the spinning took cores the broker needed.
 */
final class SystemNanoClock implements NanoClock {

    /** Longer than the usual park overshoot, short enough to keep idle CPU use low. */
    static final long DEFAULT_SPIN_WINDOW_NANOS = 80_000;

    static final SystemNanoClock INSTANCE = new SystemNanoClock(DEFAULT_SPIN_WINDOW_NANOS);

    private final long spinWindowNanos;
    /** Once per wait that reached its spin window: an add of a striped counter, far below a send's cost. */
    private final LongAdder spun = new LongAdder();

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
    public long spunNanos() {
        return spun.sum();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        long now;
        long spinFrom = 0;
        boolean spinning = false;
        while (deadlineNanos - (now = System.nanoTime()) > 0) {
            long remaining = deadlineNanos - now;
            if (remaining > spinWindowNanos) {
                LockSupport.parkNanos(remaining - spinWindowNanos);
            } else {
                if (!spinning) {
                    spinning = true;
                    spinFrom = now;
                }
                Thread.yield();
            }
            if (Thread.interrupted()) {
                if (spinning) {
                    spun.add(System.nanoTime() - spinFrom);
                }
                throw new InterruptedException();
            }
        }
        if (spinning) {
            spun.add(now - spinFrom);
        }
    }
}
