package dev.msgbench.core.run;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.time.NanoClock;

/**
 * Sends one stream's messages at their intended times and never waits for replies. When the
 * client blocks, later messages keep their intended times and go out as soon as it lets them:
 * the backlog is measured, not hidden.
 *
 * <p>A stream that falls so far behind that it would still be sending at {@code giveUpNanos}
 * stops; the messages it could not send are counted as unsent. In throughput mode a stream
 * also waits while {@code maxOutstanding} of its messages await acknowledgement.
 */
final class ProducerStream implements Runnable {

    /** How long to park while the outstanding limit is reached: shorter than any broker round trip. */
    private static final long OUTSTANDING_PARK_NANOS = 20_000;

    private final int runKey;
    private final int streamId;
    private final StreamPlan plan;
    private final Publisher publisher;
    private final RandomPayloads payloads;
    private final SplittableRandom random;
    private final NanoClock clock;
    private final Accounting accounting;
    private final Recorders recorders;
    private final RunWindow window;
    private final long giveUpNanos;
    private final int maxOutstanding;

    private volatile boolean stopRequested;
    private volatile Throwable failure;
    private volatile long measuredSent;
    private volatile long lastMeasuredSendNanos;
    private volatile long unsent;
    private volatile long maxBehindNanos;

    /** @param maxOutstanding 0 for no limit (always, on a fixed schedule: open loop) */
    ProducerStream(int runKey, int streamId, StreamPlan plan, Publisher publisher, RandomPayloads payloads, long seed,
                   NanoClock clock, Accounting accounting, Recorders recorders, RunWindow window, long giveUpNanos,
                   int maxOutstanding) {
        this.runKey = runKey;
        this.streamId = streamId;
        this.plan = plan;
        this.publisher = publisher;
        this.payloads = payloads;
        this.random = new SplittableRandom(seed);
        this.clock = clock;
        this.accounting = accounting;
        this.recorders = recorders;
        this.window = window;
        this.giveUpNanos = giveUpNanos;
        this.maxOutstanding = maxOutstanding;
    }

    @Override
    public void run() {
        byte[] message = payloads.newMessage();
        long sequence = 0;
        long sentInWindow = 0;
        long behind = 0;
        long notSent = 0;
        try {
            while (!stopRequested) {
                if (maxOutstanding > 0) {
                    awaitOutstandingBelowLimit();
                }
                long intended = plan.next(clock.nanoTime());
                if (intended == StreamPlan.DONE) {
                    break;
                }
                if (clock.nanoTime() >= giveUpNanos || stopRequested) {
                    notSent = 1;
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
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
        }
        unsent = notSent + plan.remainingAfterStop();
    }

    private void awaitOutstandingBelowLimit() throws InterruptedException {
        while (accounting.outstanding(streamId) >= maxOutstanding && !stopRequested) {
            if (clock.nanoTime() >= giveUpNanos) {
                return;
            }
            LockSupport.parkNanos(OUTSTANDING_PARK_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
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
