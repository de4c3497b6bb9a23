package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The counts of one producer stream. Sends are counted by the stream's one producer thread,
 * acknowledgements by client callback threads, receipts under the lock of the receiving
 * subscription's {@link Deliveries}. Each subscription of the stream's topic has its own record
 * of what it received.
 *
 * <p>IMPLEMENTATION NOTES: all three are on every message's path. A send and a receipt each cost
 * at most one atomic instruction; an acknowledgement one plus one per subscription, its count and
 * its bit in each subscription's ledger, which is what telling a broken promise from an allowed
 * loss per message and subscription costs. The send count has a single writer and is published
 * with a release store, which needs no fence.
 */
public final class StreamCounters {

    private static final VarHandle SENT;

    static {
        try {
            SENT = MethodHandles.lookup().findVarHandle(StreamCounters.class, "sent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int streamId;
    @SuppressWarnings("unused") // through SENT
    private volatile long sent;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final AtomicLong aborted = new AtomicLong();
    private final Deliveries[] subscriptions;

    StreamCounters(int streamId, int window, DeliveryLedger ledger) {
        this(streamId, window, new DeliveryLedger[] {ledger});
    }

    /** One ledger per subscription of the stream's topic. */
    StreamCounters(int streamId, int window, DeliveryLedger[] ledgers) {
        this.streamId = streamId;
        this.subscriptions = new Deliveries[ledgers.length];
        for (int k = 0; k < ledgers.length; k++) {
            subscriptions[k] = new Deliveries(window, ledgers[k]);
        }
    }

    public int streamId() {
        return streamId;
    }

    /** Called only by the stream's producer thread, before the message is handed over. */
    void countSent() {
        long sequence = (long) SENT.getOpaque(this);
        for (Deliveries subscription : subscriptions) {
            subscription.ledger.sending(sequence);
        }
        SENT.setRelease(this, sequence + 1);
    }

    /** Acknowledged, failed or aborted: no longer awaiting anything. */
    long settled() {
        return acked.get() + sendErrors.get() + aborted.get();
    }

    long outstanding() {
        return (long) SENT.getAcquire(this) - acked.get() - sendErrors.get() - aborted.get();
    }

    /**
     * The system aborted the message on purpose (its transaction was rolled back): never
     * acknowledged, not expected by any subscription, so never lost. Under each subscription's
     * lock, which receipts take too: an abort is rare, once per message of an aborted transaction.
     */
    void countAborted(long sequence) {
        for (Deliveries subscription : subscriptions) {
            subscription.lock();
            try {
                subscription.ledger.aborted(sequence);
            } finally {
                subscription.unlock();
            }
        }
        aborted.incrementAndGet();
    }

    long aborted() {
        return aborted.get();
    }

    /** Deliveries of aborted messages, over every subscription: none where consumers see only what was committed. */
    long abortedDelivered() {
        long total = 0;
        for (Deliveries d : subscriptions) {
            d.lock();
            try {
                total += d.ledger.abortedReceived();
            } finally {
                d.unlock();
            }
        }
        return total;
    }

    void countAcked(long sequence) {
        for (Deliveries subscription : subscriptions) {
            subscription.ledger.acked(sequence);
        }
        acked.incrementAndGet();
    }

    void countSendError() {
        sendErrors.incrementAndGet();
    }

    boolean receive(long sequence, int lane) {
        return subscriptions[0].receive(sequence, lane);
    }

    /** A receipt by subscription {@code subscription} of the stream's topic; false for a copy. */
    boolean receive(int subscription, long sequence, int lane) {
        return subscriptions[subscription].receive(sequence, lane);
    }

    int subscriptionCount() {
        return subscriptions.length;
    }

    /** Over every subscription: received, duplicated and the rest add up, and every one expects each message sent. */
    public StreamSnapshot snapshot() {
        StreamSnapshot total = null;
        for (int k = 0; k < subscriptions.length; k++) {
            StreamSnapshot one = snapshot(k);
            total = total == null ? one : total.plusDeliveries(one);
        }
        return total;
    }

    /** What subscription {@code subscription} received of this stream; expects every message sent. */
    StreamSnapshot snapshot(int subscription) {
        Deliveries d = subscriptions[subscription];
        d.lock();
        try {
            SequenceTracker tracker = d.tracker;
            return new StreamSnapshot(streamId, (long) SENT.getAcquire(this), acked.get(), sendErrors.get(),
                    tracker.unique, tracker.duplicates, tracker.reordered, tracker.late, tracker.gaps());
        } finally {
            d.unlock();
        }
    }

    /**
     * Deliveries expected and not received, over every subscription, split by acknowledgement;
     * exact once the run has drained.
     */
    public Losses losses() {
        Losses total = Losses.NONE;
        for (int k = 0; k < subscriptions.length; k++) {
            total = total.plus(losses(k));
        }
        return total;
    }

    /** Messages sent and not received by subscription {@code subscription}. */
    Losses losses(int subscription) {
        Deliveries d = subscriptions[subscription];
        d.lock();
        try {
            return d.ledger.losses((long) SENT.getAcquire(this));
        } finally {
            d.unlock();
        }
    }
}
