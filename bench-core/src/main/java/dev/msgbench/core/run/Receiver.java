package dev.msgbench.core.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.fault.DeliveryGaps;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.ThreadRecorders;
import dev.msgbench.core.time.NanoClock;

/**
 * The core's receive and acknowledgement methods: every latency of a run is computed here,
 * from the run's one clock and the header that travelled with the message.
 */
final class Receiver implements MessageSink {

    private static final VarHandle LAST_RECEIVE;
    private static final VarHandle LAST_ACK;
    private static final VarHandle FIRST_RECEIVE;

    static {
        try {
            LAST_RECEIVE = MethodHandles.lookup().findVarHandle(Receiver.class, "lastReceiveNanos", long.class);
            LAST_ACK = MethodHandles.lookup().findVarHandle(Receiver.class, "lastAckNanos", long.class);
            FIRST_RECEIVE = MethodHandles.lookup().findVarHandle(Receiver.class, "firstReceiveNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NanoClock clock;
    private final Accounting accounting;
    private final Recorders recorders;
    private final RecordingSite receiveSite;
    private final int runKey;
    private volatile RunWindow window;
    private final FirstFailure subscriberErrors = new FirstFailure();
    private final DeliveryGaps deliveryGaps = new DeliveryGaps();
    /** The commits of transactions whose first message is in the measured window; a few a second, so locked. */
    private final Histogram commitTimes = Recorders.newHistogram();
    /** Bytes received, counted where sizes vary; null where all have {@link #fixedSizeBytes}. */
    private final LongAdder receivedBytes;
    private final int fixedSizeBytes;
    @SuppressWarnings("unused") // written through LAST_RECEIVE
    private volatile long lastReceiveNanos;
    @SuppressWarnings("unused") // written through LAST_ACK
    private volatile long lastAckNanos;
    /**
     * The run's first delivery, or {@link Long#MIN_VALUE} before it: consumers started after the
     * producers read at their own rate only from there (what came before was their start and join).
     */
    @SuppressWarnings("unused") // written through FIRST_RECEIVE
    private volatile long firstReceiveNanos = Long.MIN_VALUE;

    Receiver(NanoClock clock, int runKey, Accounting accounting, Recorders recorders) {
        this(clock, runKey, accounting, recorders, 0);
    }

    /**
     * @param fixedSizeBytes the one size of every message, or 0 where sizes vary: only then does the
     *                       receive path pay for counting bytes
     */
    Receiver(NanoClock clock, int runKey, Accounting accounting, Recorders recorders, int fixedSizeBytes) {
        this.receivedBytes = fixedSizeBytes == 0 ? new LongAdder() : null;
        this.fixedSizeBytes = fixedSizeBytes;
        this.clock = clock;
        this.runKey = runKey;
        this.accounting = accounting;
        this.recorders = recorders;
        this.receiveSite = new RecordingSite(recorders);
    }

    /** Set once, before the first message of the run is sent. */
    void start(RunWindow runWindow) {
        this.window = runWindow;
        this.lastReceiveNanos = runWindow.startNanos();
        this.lastAckNanos = runWindow.startNanos();
    }

    /** The first subscription of the first topic: the only one of a run without --topics. */
    @Override
    public void onMessage(byte[] data, int offset, int length, int lane) {
        receive(0, 0, data, offset, length, lane);
    }

    @Override
    public void onMessage(ByteBuffer data, int lane) {
        receive(0, 0, data, lane, clock.nanoTime());
    }

    @Override
    public long receivedNow() {
        return clock.nanoTime();
    }

    @Override
    public void onMessage(ByteBuffer data, int lane, long receivedNanos) {
        receive(0, 0, data, lane, receivedNanos);
    }

    @Override
    public <T> void onMessages(List<T> messages, Function<? super T, ByteBuffer> valueOf, int lane, long receivedNanos) {
        receiveAll(0, 0, messages, valueOf, lane, receivedNanos);
    }

    /**
     * Where the consumers of subscription {@code subscription} of topic {@code topic} deliver: each
     * delivery is recorded, and counted against that subscription alone.
     */
    MessageSink sinkFor(int topic, int subscription) {
        if (topic == 0 && subscription == 0) {
            return this;
        }
        return new MessageSink() {
            @Override
            public void onMessage(byte[] data, int offset, int length, int lane) {
                receive(topic, subscription, data, offset, length, lane);
            }

            @Override
            public void onMessage(ByteBuffer data, int lane) {
                receive(topic, subscription, data, lane, clock.nanoTime());
            }

            @Override
            public long receivedNow() {
                return clock.nanoTime();
            }

            @Override
            public void onMessage(ByteBuffer data, int lane, long receivedNanos) {
                receive(topic, subscription, data, lane, receivedNanos);
            }

            @Override
            public <T> void onMessages(List<T> messages, Function<? super T, ByteBuffer> valueOf, int lane,
                                       long receivedNanos) {
                receiveAll(topic, subscription, messages, valueOf, lane, receivedNanos);
            }

            @Override
            public void onError(Throwable error) {
                Receiver.this.onError(error);
            }
        };
    }

    private void receive(int topic, int subscription, byte[] data, int offset, int length, int lane) {
        long now = clock.nanoTime();
        if (!PayloadHeader.isOfRun(data, offset, length, runKey)) {
            accounting.countForeign();
            return;
        }
        record(now, topic, subscription, PayloadHeader.streamId(data, offset), PayloadHeader.sequence(data, offset),
                PayloadHeader.intendedNanos(data, offset), PayloadHeader.sentNanos(data, offset), lane, length);
    }

    private void receive(int topic, int subscription, ByteBuffer data, int lane, long now) {
        if (count(topic, subscription, data, lane, now, receiveSite.forCurrentThread())) {
            delivered(now);
        }
    }

    /**
     * Messages received together: their latencies share one critical section of this thread's
     * histograms, and the run's delivery times are updated once, as they share one receive time.
     * Each is counted under its stream's lock on its own: holding the lock for a poll's run of one
     * stream made two consumers of one stream's partitions read a quarter slower, each waiting out
     * the other's poll (M1, 2026-11-26: 1.39, 1.24, 1.36 million msg/s against 1.42, 1.91, 1.80; the
     * command is in commit ece0575 of docs/measurements.md).
     */
    private <T> void receiveAll(int topic, int subscription, List<T> messages, Function<? super T, ByteBuffer> valueOf,
                                int lane, long now) {
        ThreadRecorders recorder = receiveSite.forCurrentThread();
        RunWindow runWindow = window;
        boolean anyCounted = false;
        recorder.openBatch(HistogramKind.LATENCY, HistogramKind.SERVICE);
        try {
            for (T message : messages) {
                ByteBuffer data = valueOf.apply(message);
                if (!PayloadHeader.isOfRun(data, runKey)) {
                    accounting.countForeign();
                } else if (accounting.receive(topic, subscription, PayloadHeader.streamId(data),
                        PayloadHeader.sequence(data), lane)) {
                    countBytes(data.remaining());
                    long intended = PayloadHeader.intendedNanos(data);
                    recorder.addToBatch(now - intended, now - PayloadHeader.sentNanos(data),
                            runWindow.isMeasured(intended));
                    anyCounted = true;
                }
            }
        } finally {
            recorder.closeBatch();
        }
        if (anyCounted) {
            delivered(now);
        }
    }

    private void record(long now, int topic, int subscription, int stream, long sequence, long intended, long sent,
                        int lane, int length) {
        if (count(now, topic, subscription, stream, sequence, intended, sent, lane, length,
                receiveSite.forCurrentThread())) {
            delivered(now);
        }
    }

    private boolean count(int topic, int subscription, ByteBuffer data, int lane, long now, ThreadRecorders recorder) {
        if (!PayloadHeader.isOfRun(data, runKey)) {
            accounting.countForeign();
            return false;
        }
        return count(now, topic, subscription, PayloadHeader.streamId(data), PayloadHeader.sequence(data),
                PayloadHeader.intendedNanos(data), PayloadHeader.sentNanos(data), lane, data.remaining(), recorder);
    }

    /** Accounts for one message and records its latencies; false for a copy or a message of another topic. */
    private boolean count(long now, int topic, int subscription, int stream, long sequence, long intended, long sent,
                          int lane, int length, ThreadRecorders recorder) {
        if (!accounting.receive(topic, subscription, stream, sequence, lane)) {
            return false;
        }
        countBytes(length);
        recorder.record(HistogramKind.LATENCY, now - intended, HistogramKind.SERVICE, now - sent,
                window.isMeasured(intended));
        return true;
    }

    private void countBytes(int length) {
        if (receivedBytes != null) {
            receivedBytes.add(length);
        }
    }

    /** A delivery at {@code now}: the gap since the one before it, and the run's first and last. */
    private void delivered(long now) {
        deliveryGaps.between((long) LAST_RECEIVE.getOpaque(this), now);
        // an opaque read per message; the compare-and-set happens once
        if ((long) FIRST_RECEIVE.getOpaque(this) == Long.MIN_VALUE) {
            FIRST_RECEIVE.compareAndSet(this, Long.MIN_VALUE, now);
        }
        // opaque: a cheap store; readers only need a recent value, not a fence
        LAST_RECEIVE.setOpaque(this, now);
    }

    @Override
    public void onError(Throwable error) {
        subscriberErrors.add(error);
    }

    FirstFailure subscriberErrors() {
        return subscriberErrors;
    }

    DeliveryGaps deliveryGaps() {
        return deliveryGaps;
    }

    long lastReceiveNanos() {
        return (long) LAST_RECEIVE.getOpaque(this);
    }

    /** The first delivery's time, or {@link Long#MIN_VALUE} when nothing was delivered. */
    long firstReceiveNanos() {
        return (long) FIRST_RECEIVE.getOpaque(this);
    }

    /** Bytes of the messages received, each counted once. */
    long receivedBytes() {
        return receivedBytes != null ? receivedBytes.sum() : accounting.total().received() * fixedSizeBytes;
    }

    long lastAckNanos() {
        return (long) LAST_ACK.getOpaque(this);
    }

    AckListener acksFor(int streamId, FirstFailure ackErrors) {
        RecordingSite ackSite = new RecordingSite(recorders);
        return new AckListener() {
            @Override
            public void acked(long sequence, long intendedSendNanos) {
                long now = clock.nanoTime();
                accounting.countAcked(streamId, sequence);
                ackSite.forCurrentThread().record(HistogramKind.ACK, window.isMeasured(intendedSendNanos),
                        now - intendedSendNanos);
                LAST_ACK.setOpaque(Receiver.this, now);
            }

            @Override
            public void failed(long sequence, long intendedSendNanos, Throwable error) {
                accounting.countSendError(streamId);
                ackErrors.add(error);
            }

            @Override
            public void aborted(long sequence, long intendedSendNanos) {
                accounting.countAborted(streamId, sequence);
            }

            @Override
            public void committed(long firstIntendedSendNanos, long commitNanos) {
                if (window.isMeasured(firstIntendedSendNanos)) {
                    synchronized (commitTimes) {
                        commitTimes.recordValue(Math.max(0, commitNanos));
                    }
                }
            }
        };
    }

    /** A copy of the measured commits' times: empty where the run commits no transactions. */
    Histogram commitTimes() {
        synchronized (commitTimes) {
            return commitTimes.copy();
        }
    }
}
