package dev.msgbench.core.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.ThreadRecorders;
import dev.msgbench.core.time.NanoClock;

/**
 * Sends one stream's messages at their intended times and never waits for replies. When the
 * client blocks, later messages keep their intended times and go out as soon as it lets them:
 * the backlog is measured, not hidden.
 *
 * <p>A stream that falls so far behind that it would still be sending at {@code giveUpNanos}
 * stops; the messages it could not send are counted as unsent. In throughput mode a stream
 * also waits while {@code maxOutstanding} of its messages await acknowledgement.
 *
 * <p>Before every wait, and when it stops, the stream calls {@link Publisher#endOfBurst}, so a
 * client may batch the messages sent back to back while behind, but never holds one back across
 * a wait.
 */
final class ProducerStream implements Runnable {

    /** How long to park while the outstanding limit is reached: shorter than any broker round trip. */
    private static final long OUTSTANDING_PARK_NANOS = 20_000;
    /**
     * How long to yield instead of parking first: a small limit (redis-benchmark's 16) is freed
     * again within tens of microseconds, and a parked thread wakes later than that on a VM.
     */
    private static final long OUTSTANDING_YIELD_NANOS = 100_000;

    /**
     * The most messages a stream due when sent sends in one {@link #sendBurst}. Often enough to
     * see a stop request within a millisecond; rarely enough that the loop around it stays cold.
     */
    private static final long BURST = 1024;

    private static final long KEY_SEED = 0x9E3779B97F4A7C15L;

    private final int runKey;
    private final int streamId;
    private final StreamPlan plan;
    private final Publisher publisher;
    private final ProducerPayloads payloads;
    /** The messages' record keys; null without keys. */
    private final RecordKeys.Chooser keys;
    private final NanoClock clock;
    private final Accounting accounting;
    private final Recorders recorders;
    private final RunWindow window;
    private final long giveUpNanos;
    private final int maxOutstanding;
    private final boolean dueWhenSent;

    private static final VarHandle MEASURED_SENT;
    private static final VarHandle LAST_MEASURED_SEND;
    private static final VarHandle MAX_BEHIND;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MEASURED_SENT = lookup.findVarHandle(ProducerStream.class, "measuredSent", long.class);
            LAST_MEASURED_SEND = lookup.findVarHandle(ProducerStream.class, "lastMeasuredSendNanos", long.class);
            MAX_BEHIND = lookup.findVarHandle(ProducerStream.class, "maxBehindNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile boolean stopRequested;
    /** Set by {@link #abandon}: what the sending thread throws from then on is no failure of the run. */
    private volatile boolean abandoned;
    private volatile Throwable failure;
    private volatile long measuredSent;
    private volatile long lastMeasuredSendNanos;
    private volatile long unsent;
    private volatile long maxBehindNanos;
    private volatile long sentBytes;

    // Written only by the thread that sends the stream. Fields rather than locals of the loop: the
    // publish call between two messages is opaque to the compiler, which keeps neither in a register
    // across it, and fields let a thread that sends several streams use the same code.
    private long sequence;
    private long sentInWindow;
    private long behind;
    private long bytes;
    /** Whether it sent since its thread's last wait; kept by a {@link SharedProducerThread}. */
    boolean inBurst;

    /** @param maxOutstanding 0 for no limit (always, on a fixed schedule: open loop) */
    ProducerStream(int runKey, int streamId, StreamPlan plan, Publisher publisher, RandomPayloads payloads, long seed,
                   NanoClock clock, Accounting accounting, Recorders recorders, RunWindow window, long giveUpNanos,
                   int maxOutstanding) {
        this(runKey, streamId, plan, publisher, payloads, seed, clock, accounting, recorders, window, giveUpNanos,
                maxOutstanding, RecordKeys.NONE);
    }

    ProducerStream(int runKey, int streamId, StreamPlan plan, Publisher publisher, RandomPayloads payloads, long seed,
                   NanoClock clock, Accounting accounting, Recorders recorders, RunWindow window, long giveUpNanos,
                   int maxOutstanding, RecordKeys recordKeys) {
        this(runKey, streamId, plan, publisher, new ProducerPayloads(payloads, seed), seed, clock, accounting, recorders,
                window, giveUpNanos, maxOutstanding, recordKeys);
    }

    /** @param payloads the arrays and bodies of the thread that sends this stream, shared with its other streams */
    ProducerStream(int runKey, int streamId, StreamPlan plan, Publisher publisher, ProducerPayloads payloads, long seed,
                   NanoClock clock, Accounting accounting, Recorders recorders, RunWindow window, long giveUpNanos,
                   int maxOutstanding, RecordKeys recordKeys) {
        this.runKey = runKey;
        this.streamId = streamId;
        this.plan = plan;
        this.publisher = publisher;
        this.payloads = payloads;
        // a seed of its own: the same seed draws the same keys with or without a size distribution
        this.keys = recordKeys.chooser(seed ^ KEY_SEED);
        this.clock = clock;
        this.accounting = accounting;
        this.recorders = recorders;
        this.window = window;
        this.giveUpNanos = giveUpNanos;
        this.maxOutstanding = maxOutstanding;
        this.dueWhenSent = plan.dueWhenSent();
    }

    @Override
    public void run() {
        ThreadRecorders recorder = recorders.current();
        long notSent = 0;
        // acknowledgements as last read: the counters change with every reply on another core, so
        // they are read again only when what was last read says the limit may be reached
        long settledSeen = 0;
        try {
            // The clock is read once per message, for the send time (a read costs about 25 ns,
            // a quarter of the engine's budget). The plan and the give-up check take the
            // previous send time instead: a schedule ahead of it is waited for with fresh
            // reads, and one behind it is behind the true time all the more.
            if (maxOutstanding > 0) {
                publisher.outstandingLimit(maxOutstanding);
                // this thread waits for acknowledgements, so it may as well read them
                publisher.takeOverReplies();
            }
            long now = clock.nanoTime();
            while (!stopRequested) {
                if (maxOutstanding > 0 && sequence - settledSeen >= maxOutstanding) {
                    settledSeen = accounting.settled(streamId);
                    if (sequence - settledSeen >= maxOutstanding) {
                        settledSeen = awaitOutstandingBelowLimit(sequence);
                        now = clock.nanoTime();
                    }
                }
                if (dueWhenSent) {
                    long room = maxOutstanding > 0 ? maxOutstanding - (sequence - settledSeen) : BURST;
                    long burst = plan.burstable(now, Math.min(BURST, room));
                    if (burst > 0) {
                        long before = sequence;
                        now = sendBurst(burst, Math.min(giveUpNanos, plan.burstEndNanos()), now, recorder);
                        long sent = sequence - before;
                        plan.burstSent(sent);
                        if (sent > 0) {
                            continue;
                        }
                        // at the give-up time or stopped: the message-by-message path below says so
                    }
                }
                long intended = plan.next(now);
                if (intended == StreamPlan.DONE) {
                    break;
                }
                if (now >= giveUpNanos || stopRequested) {
                    notSent = 1;
                    break;
                }
                if (intended > now) {
                    // nothing may be due before this message: what the client holds back must not wait with us
                    publisher.endOfBurst();
                    clock.sleepUntil(intended);
                }
                now = send(intended, recorder);
            }
            publisher.endOfBurst();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failed(t);
        }
        finish(notSent);
    }

    /**
     * Sends up to {@code count} messages back to back, each due when sent; stops early at
     * {@code untilNanos} or a stop request, leaving the rest to the plan. Returns the last send time.
     *
     * <p>Why a method of its own: the JIT compiles a hot loop with the exits it has seen taken.
     * Here the only exit taken in a run is the count, every burst, so the compiled loop survives
     * the end of a warm-up run and serves the measured run warm. A loop that ended only at the
     * plan's end would meet that end as a branch never seen, drop its compiled code there and
     * compile it again during the measured run.
     */
    private long sendBurst(long count, long untilNanos, long now, ThreadRecorders recorder) throws Exception {
        for (long i = 0; i < count; i++) {
            if (now >= untilNanos || stopRequested) {
                break;
            }
            now = send(now, recorder);
        }
        return now;
    }

    /**
     * Sends the stream's next message, intended at {@code intended}, now; returns its send time.
     * Only from the one thread that sends this stream.
     */
    long send(long intended, ThreadRecorders recorder) throws Exception {
        byte[] message = payloads.messages.next();
        long actual = clock.nanoTime();
        if (dueWhenSent && actual > intended) {
            intended = actual;
        }
        PayloadHeader.write(message, runKey, streamId, sequence, intended);
        PayloadHeader.stampSendTime(message, actual);
        accounting.countSent(streamId);
        try {
            if (keys == null) {
                publisher.publish(message, sequence, intended);
            } else {
                publisher.publish(message, keys.next(), sequence, intended);
            }
        } catch (Exception e) {
            if (abandoned) {
                // the engine woke a send it gave up on: it failed, as a send the client gave up on does
                accounting.countSendError(streamId);
            }
            throw e;
        }
        bytes += message.length;
        boolean measured = window.isMeasured(intended);
        recorder.record(HistogramKind.SEND_DELAY, measured, actual - intended);
        if (actual - intended > behind) {
            behind = actual - intended;
            MAX_BEHIND.setRelease(this, behind);
        }
        if (measured) {
            // release stores: readers want a recent value, and a volatile store would cost a fence per message
            MEASURED_SENT.setRelease(this, ++sentInWindow);
            LAST_MEASURED_SEND.setRelease(this, actual);
            if (payloads.measuredSizes != null) {
                payloads.measuredSizes.recordValue(message.length);
            }
        }
        sequence++;
        return actual;
    }

    /**
     * Ends the stream: {@code notSent} messages handed out by the plan were not sent (0 or 1), and
     * neither will the rest of the plan be.
     */
    void finish(long notSent) {
        sentBytes = bytes;
        unsent = notSent + plan.remainingAfterStop();
    }

    /** The intended time of the stream's next message, or {@link StreamPlan#DONE}; from the sending thread. */
    long next(long now) {
        return plan.next(now);
    }

    int streamId() {
        return streamId;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    /** The send of this stream failed: the stream ends, and the run with it, unless it was {@link #abandon abandoned}. */
    void failed(Throwable t) {
        if (!abandoned) {
            failure = t;
        }
    }

    /**
     * Waits while {@code sent} messages leave {@code maxOutstanding} or more unsettled; returns
     * the settled count last read. Also returns at the give-up time or a stop request, which the
     * loop then sees.
     */
    private long awaitOutstandingBelowLimit(long sent) throws Exception {
        // the acknowledgements we wait for may be for messages the client still holds back
        publisher.endOfBurst();
        long yieldUntil = clock.nanoTime() + OUTSTANDING_YIELD_NANOS;
        long settled;
        while (sent - (settled = accounting.settled(streamId)) >= maxOutstanding && !stopRequested) {
            long now = clock.nanoTime();
            if (now >= giveUpNanos) {
                break;
            }
            if (publisher.makeProgress()) {
                continue;
            }
            if (now < yieldUntil) {
                // lets the client's reply thread and a broker sharing this core run
                Thread.yield();
                continue;
            }
            LockSupport.parkNanos(OUTSTANDING_PARK_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return settled;
    }

    void requestStop() {
        stopRequested = true;
    }

    /**
     * Stops the stream for good while its thread is blocked in a send, before the engine interrupts
     * that thread: the send it wakes from counts as failed, and what the thread throws is no failure.
     */
    void abandon() {
        abandoned = true;
        stopRequested = true;
    }

    boolean abandoned() {
        return abandoned;
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

    /** Bytes of every message sent, warm-up included; read once the stream has ended. */
    long sentBytes() {
        return sentBytes;
    }

    /**
     * Sizes of the measured messages sent by this stream's thread, or null when all have the run's
     * one size; shared by the streams of one thread; read once the stream has ended.
     */
    Histogram measuredSizes() {
        return payloads.measuredSizes;
    }

    /** The arrays and bodies this stream draws from, shared by the streams of its thread. */
    ProducerPayloads payloads() {
        return payloads;
    }

    long maxBehindNanos() {
        return maxBehindNanos;
    }

    Publisher publisher() {
        return publisher;
    }
}
