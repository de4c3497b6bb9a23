package dev.msgbench.core.run;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongToDoubleFunction;

import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.BacklogFigures;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.time.NanoClock;

/**
 * Holds the consumers back until the producers have sent the backlog (--backlog), then
 * subscribes them and watches them drain it; its own thread, so the producers' schedule never
 * waits for it. The phases go to the interval log as comments, for the charts over time.
 */
final class BacklogGate implements Runnable {

    /**
     * How often the gate looks at the counts: the precision of the times it reports. Not finer: a
     * sleep on the run's clock spins its last --spin-window, which every look would pay.
     */
    private static final long POLL_NANOS = 5_000_000L;
    private static final double SCHEDULE_TOLERANCE = 0.01;

    /** Subscribes every consumer and waits until each is ready. */
    interface Release {
        void subscribeAll() throws Exception;
    }

    private final Backlog backlog;
    private final long backlogMessages;
    private final Accounting accounting;
    private final RunWindow window;
    private final IntervalLog log;
    private final LongToDoubleFunction targetRateAt;
    private final NanoClock clock;
    private final Release release;
    private final Receiver receiver;
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean sendingOver;
    private volatile boolean stopped;
    private volatile BacklogFigures figures;

    /**
     * @param clock         the gate's clock, made just before its thread starts (a fake clock's watcher)
     * @param receiver      told a failure to subscribe, which ends the run as a subscriber's failure does
     */
    BacklogGate(Backlog backlog, long backlogMessages, Accounting accounting, RunWindow window, IntervalLog log,
                LongToDoubleFunction targetRateAt, NanoClock clock, Release release, Receiver receiver) {
        this.backlog = backlog;
        this.backlogMessages = backlogMessages;
        this.accounting = accounting;
        this.window = window;
        this.log = log;
        this.targetRateAt = targetRateAt;
        this.clock = clock;
        this.release = release;
        this.receiver = receiver;
    }

    @Override
    public void run() {
        try {
            while (!stopped && !sendingOver && accounting.total().sent() < backlogMessages) {
                clock.sleepUntil(clock.nanoTime() + POLL_NANOS);
            }
            if (stopped) {
                return;
            }
            long reachedNanos = clock.nanoTime();
            StreamSnapshot atReach = accounting.total();
            boolean reached = atReach.sent() >= backlogMessages;
            log.phase(String.format(Locale.US, "backlog %s: %d messages sent at %.3f s from StartTime; releasing "
                    + "the consumers", reached ? "reached" : "not reached, sending over", atReach.sent(),
                    seconds(reachedNanos)));
            // released when subscribing begins: a log replays to a consumer as it subscribes
            long releasedNanos = clock.nanoTime();
            StreamSnapshot atRelease = accounting.total();
            long waiting = atRelease.expected() - atRelease.received();
            log.phase(String.format(Locale.US, "consumers released at %.3f s from StartTime: %d deliveries waiting",
                    seconds(releasedNanos), waiting));
            figures = figures(reached, reachedNanos, releasedNanos, null, atRelease, null, null, 0);
            try {
                release.subscribeAll();
            } finally {
                released.countDown();
            }
            long readyNanos = clock.nanoTime();
            StreamSnapshot atReady = accounting.total();
            log.phase(String.format(Locale.US, "consumers ready at %.3f s from StartTime", seconds(readyNanos)));
            figures = figures(reached, reachedNanos, releasedNanos, readyNanos, atRelease, atReady, null, 0);
            while (!stopped && accounting.total().received() < atRelease.expected()) {
                clock.sleepUntil(clock.nanoTime() + POLL_NANOS);
            }
            if (stopped) {
                return;
            }
            long drainedNanos = clock.nanoTime();
            figures = figures(reached, reachedNanos, releasedNanos, readyNanos, atRelease, atReady, accounting.total(),
                    drainedNanos);
            log.phase(String.format(Locale.US, "backlog drained at %.3f s from StartTime: %.3f s at %.0f msg/s",
                    seconds(drainedNanos), figures.drainSeconds(), figures.drainRateMsgsPerSec()));
        } catch (InterruptedException e) {
            // stop() interrupts a wait; whoever runs this thread may want to know
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            receiver.onError(e);
        } finally {
            released.countDown();
        }
    }

    /** Every producer has ended: a backlog not reached by now never will be, so the consumers go. */
    void sendingOver() {
        sendingOver = true;
    }

    /** Waits until the consumers were subscribed (or failed to be). */
    void awaitReleased() throws InterruptedException {
        released.await();
    }

    /** Stops watching, whatever the drain has come to, and waits for the gate's thread. */
    void stop(Thread thread) throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join();
    }

    /** What the gate saw; null when it never released the consumers. */
    BacklogFigures figures() {
        return figures;
    }

    private BacklogFigures figures(boolean reached, long reachedNanos, long releasedNanos, Long readyNanos,
                                   StreamSnapshot atRelease, StreamSnapshot atReady, StreamSnapshot atDrained,
                                   long drainedNanos) {
        Double readyAt = readyNanos == null ? null : seconds(readyNanos);
        double target = targetRateAt.applyAsDouble(releasedNanos);
        Double targetRate = Double.isNaN(target) ? null : target;
        if (atDrained == null) {
            return new BacklogFigures(backlog.describe(), backlogMessages, reached, seconds(reachedNanos),
                    seconds(releasedNanos), readyAt, atRelease.expected() - atRelease.received(), false, null, null, null, null,
                    targetRate, null);
        }
        double drainSeconds = (drainedNanos - releasedNanos) / 1e9;
        // the consumers read from when they are ready (a Kafka group's join is no reading); a drain over by then,
        // as a log replayed while subscribing, has no rate to speak of (on a real clock the look that finds it over
        // comes a few microseconds after ready, and would read as 0 msg/s)
        double readingSeconds = (drainedNanos - readyNanos) / 1e9;
        long readAfterReady = atDrained.received() - atReady.received();
        Double drainRate = readingSeconds > 0 && readAfterReady > 0 ? readAfterReady / readingSeconds : null;
        Double sendRate = drainSeconds > 0 ? (atDrained.sent() - atRelease.sent()) / drainSeconds : null;
        // sending that ended during the drain would read as a missed schedule
        Boolean kept = targetRate == null || sendRate == null || drainedNanos > window.endNanos() ? null
                : sendRate >= targetRate * (1 - SCHEDULE_TOLERANCE);
        return new BacklogFigures(backlog.describe(), backlogMessages, reached, seconds(reachedNanos),
                seconds(releasedNanos), readyAt, atRelease.expected() - atRelease.received(), true, seconds(drainedNanos),
                drainSeconds, drainRate, sendRate, targetRate, kept);
    }

    private double seconds(long nanos) {
        return (nanos - window.startNanos()) / 1e9;
    }
}
