package dev.msgbench.core.run;

import java.util.concurrent.locks.LockSupport;

import dev.msgbench.core.Threads;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.time.NanoClock;

/**
 * The load generator's own stalls, measured as jHiccup does: a thread asks to sleep
 * {@link #INTERVAL_NANOS} and records how much later than that it woke. A GC pause, a
 * safepoint or a descheduled JVM delays this thread as much as the producers and the
 * receiver, so the "hiccup" histogram shows how much of a latency tail came from our JVM and
 * not from the broker. Values go to the run's recorders under {@link HistogramKind#HICCUP}, so
 * they appear in the interval log and the results like every other kind.
 *
 * <p>The baseline is not zero: a park overshoots by the kernel's timer slack (tens of
 * microseconds). That is why the meter parks instead of spinning: spinning would be exact but
 * would take a core from the broker under test on a small machine.
 */
final class HiccupMeter implements Runnable {

    /** How long the meter sleeps each time: the resolution of what it can see. */
    static final long INTERVAL_NANOS = 1_000_000L;

    /** Sleeps about the given time; a test seam, so a test can stall the meter on demand. */
    interface Pause {
        void pause(long nanos) throws InterruptedException;
    }

    /** A real run's pause: parked, not spinning, and ended early by an interrupt. */
    static final Pause PARK = HiccupMeter::park;

    private final NanoClock clock;
    private final Pause pause;
    private final Recorders recorders;
    private final RunWindow window;
    private volatile boolean stopped;
    private Thread thread;

    HiccupMeter(NanoClock clock, Pause pause, Recorders recorders, RunWindow window) {
        this.clock = clock;
        this.pause = pause;
        this.recorders = recorders;
        this.window = window;
    }

    /** A meter already running on a daemon thread, reading {@code clock} around each {@code pause}. */
    static HiccupMeter start(Recorders recorders, RunWindow window, NanoClock clock, Pause pause) {
        HiccupMeter meter = new HiccupMeter(clock, pause, recorders, window);
        Thread thread = new Thread(meter, "msgbench-hiccup-meter");
        thread.setDaemon(true);
        meter.thread = thread;
        thread.start();
        return meter;
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                long before = clock.nanoTime();
                pause.pause(INTERVAL_NANOS);
                long after = clock.nanoTime();
                recorders.record(HistogramKind.HICCUP, window.isMeasured(before), after - before - INTERVAL_NANOS);
            }
        } catch (InterruptedException e) {
            // stop() interrupts the sleep: the meter ends, and keeps the flag for whoever runs it
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the meter and waits for its thread, so that its last values are in the recorders.
     * Idempotent; an interrupt of the caller is kept for the caller, since the meter's thread
     * ends within one pause anyway.
     */
    void stop() {
        stopped = true;
        if (thread == null) {
            return;
        }
        Threads.interruptAndJoin(thread);
    }

    private static void park(long nanos) throws InterruptedException {
        LockSupport.parkNanos(nanos);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
