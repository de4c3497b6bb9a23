package dev.msgbench.core.testing;

import dev.msgbench.core.time.NanoClock;

/** A clock that moves only when told to, or when someone sleeps on it. Single-threaded use. */
public final class ManualClock implements NanoClock {

    private long now;

    public ManualClock(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleepUntil(long deadlineNanos) {
        if (deadlineNanos > now) {
            now = deadlineNanos;
        }
    }

    public void advance(long nanos) {
        now += nanos;
    }
}
