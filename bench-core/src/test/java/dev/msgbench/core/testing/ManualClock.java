package dev.msgbench.core.testing;

import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.time.NanoClock;

/**
 * A clock that moves only when told to, or when a thread sleeps on it: a sleep moves the time to
 * its deadline at once, so a run of seconds takes milliseconds and every time in it is exact.
 *
 * <p>A thread that only watches the time (a monitor that ticks each second) sleeps on a
 * {@link #watcher()} instead. A watcher's sleep never moves the time; it waits until another
 * thread moves it to the watcher's deadline. Such a move stops there, wakes the watcher, waits
 * until it sleeps again (or its thread ends), and only then goes on. So each tick sees exactly
 * the time it asked for and everything that happened before it, however the threads are
 * scheduled. A watcher holds the time from the moment it is made until its thread first sleeps:
 * make it just before starting the thread that uses it.
 *
 * <p>Two threads that move the time race: whichever sleeps first moves it, and the other may find
 * its deadline passed. Tests that need exact times let one thread move it.
 */
public final class ManualClock implements NanoClock {

    /** How often a move waiting for a watcher checks whether the watcher's thread has ended. */
    private static final long WATCHER_END_CHECK_MILLIS = 10;

    private volatile long now;
    private final List<Watcher> watchers = new ArrayList<>();

    public ManualClock(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** Moves the time to {@code deadlineNanos} unless it is there already; throws if interrupted, as a real sleep does. */
    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        moveTo(deadlineNanos);
    }

    /** Moves the time forward by {@code nanos}. */
    public void advance(long nanos) {
        synchronized (this) {
            moveTo(now + nanos);
        }
    }

    /** A view of this clock for one thread that watches the time and must never move it. */
    public NanoClock watcher() {
        Watcher watcher = new Watcher();
        synchronized (this) {
            watchers.add(watcher);
        }
        return watcher;
    }

    private synchronized void moveTo(long target) {
        boolean interrupted = false;
        while (true) {
            interrupted |= awaitWatchersAsleep();
            Watcher due = earliestAsleepUntil(target);
            if (due == null) {
                break;
            }
            now = Math.max(now, due.deadlineNanos);
            for (Watcher w : watchers) {
                if (w.state == State.ASLEEP && w.deadlineNanos <= now) {
                    w.state = State.AWAKE;
                }
            }
            notifyAll();
        }
        if (target > now) {
            now = target;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (without giving up on an interrupt, which it reports) until no watcher is awake. */
    private boolean awaitWatchersAsleep() {
        boolean interrupted = false;
        while (watchers.stream().anyMatch(Watcher::isAwake)) {
            try {
                // notified when a watcher sleeps; the timeout only notices a watcher thread that ended awake
                wait(WATCHER_END_CHECK_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }

    private Watcher earliestAsleepUntil(long target) {
        Watcher earliest = null;
        for (Watcher w : watchers) {
            if (w.state == State.ASLEEP && w.deadlineNanos <= target
                    && (earliest == null || w.deadlineNanos < earliest.deadlineNanos)) {
                earliest = w;
            }
        }
        return earliest;
    }

    private enum State { AWAKE, ASLEEP, LEFT }

    private final class Watcher implements NanoClock {
        /** Guarded by the clock, as are the fields below. */
        private State state = State.AWAKE;
        private long deadlineNanos;
        private Thread owner;

        /** Awake and still running: a move waits for it. Never the moving thread itself, which would wait forever. */
        boolean isAwake() {
            return state == State.AWAKE && (owner == null || owner.isAlive() && owner != Thread.currentThread());
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepUntil(long deadline) throws InterruptedException {
            synchronized (ManualClock.this) {
                owner = Thread.currentThread();
                if (Thread.interrupted()) {
                    leave();
                    throw new InterruptedException();
                }
                if (now >= deadline) {
                    state = State.AWAKE;
                    return;
                }
                deadlineNanos = deadline;
                state = State.ASLEEP;
                ManualClock.this.notifyAll();
                try {
                    while (state == State.ASLEEP) {
                        ManualClock.this.wait();
                    }
                } catch (InterruptedException e) {
                    leave();
                    throw e;
                }
            }
        }

        /** Interrupted: the thread stops watching, so moves no longer wait for it. */
        private void leave() {
            state = State.LEFT;
            ManualClock.this.notifyAll();
        }
    }
}
