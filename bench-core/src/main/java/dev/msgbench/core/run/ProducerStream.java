package dev.msgbench.core.run;

import java.util.SplittableRandom;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.time.Schedule;

/**
 * Sends one stream's messages at their scheduled times and never waits for replies. When the
 * client blocks, later messages keep their intended times and go out as soon as it lets them:
 * the backlog is measured, not hidden.
 *
 * <p>A stream that falls so far behind that it would still be sending at {@code giveUpNanos}
 * stops; the messages it could not send are counted as unsent.
 */
final class ProducerStream implements Runnable {

    private final int runKey;
    private final int streamId;
    private final Schedule schedule;
    private final Publisher publisher;
    private final RandomPayloads payloads;
    private final SplittableRandom random;
    private final NanoClock clock;
    private final Accounting accounting;
    private final Recorders recorders;
    private final RunWindow window;
    private final long giveUpNanos;

    private volatile boolean stopRequested;
    private volatile Throwable failure;
    private volatile long measuredSent;
    private volatile long lastMeasuredSendNanos;
    private volatile long unsent;
    private volatile long maxBehindNanos;

    ProducerStream(int runKey, int streamId, Schedule schedule, Publisher publisher, RandomPayloads payloads, long seed,
                   NanoClock clock, Accounting accounting, Recorders recorders, RunWindow window, long giveUpNanos) {
        this.runKey = runKey;
        this.streamId = streamId;
        this.schedule = schedule;
        this.publisher = publisher;
        this.payloads = payloads;
        this.random = new SplittableRandom(seed);
        this.clock = clock;
        this.accounting = accounting;
        this.recorders = recorders;
        this.window = window;
        this.giveUpNanos = giveUpNanos;
    }

    @Override
    public void run() {
        byte[] message = payloads.newMessage();
        long sequence = 0;
        long intended = schedule.next();
        long sentInWindow = 0;
        long behind = 0;
        try {
            while (intended < window.endNanos() && !stopRequested) {
                if (clock.nanoTime() >= giveUpNanos) {
                    break;
                }
                clock.sleepUntil(intended);
                payloads.refill(message, random);
                PayloadHeader.write(message, runKey, streamId, sequence, intended);
                long actual = clock.nanoTime();
                PayloadHeader.stampSendTime(message, actual);
                accounting.countSent(streamId);
                publisher.publish(message, sequence, intended);
                boolean measured = window.isMeasured(intended);
                recorders.record(HistogramKind.SEND_DELAY, measured, actual - intended);
                if (actual - intended > behind) {
                    behind = actual - intended;
                    maxBehindNanos = behind;
                }
                if (measured) {
                    measuredSent = ++sentInWindow;
                    lastMeasuredSendNanos = actual;
                }
                sequence++;
                intended = schedule.next();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
        }
        unsent = countRemaining(intended);
    }

    private long countRemaining(long nextIntended) {
        long remaining = 0;
        for (long t = nextIntended; t < window.endNanos(); t = schedule.next()) {
            remaining++;
        }
        return remaining;
    }

    void requestStop() {
        stopRequested = true;
    }

    Throwable failure() {
        return failure;
    }

    long measuredSent() {
        return measuredSent;
    }

    long lastMeasuredSendNanos() {
        return lastMeasuredSendNanos;
    }

    /** Scheduled messages never sent because the run was stopped or fell too far behind. */
    long unsent() {
        return unsent;
    }

    long maxBehindNanos() {
        return maxBehindNanos;
    }

    Publisher publisher() {
        return publisher;
    }
}
