package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The counts of one producer stream. Sends are counted by the stream's one producer thread,
 * acknowledgements by client callback threads, receipts under the stream's tracker lock. Which
 * sequences were acknowledged and which received is kept in a {@link DeliveryLedger}.
 *
 * <p>IMPLEMENTATION NOTES: all three are on every message's path. A send and a receipt each cost
 * at most one atomic instruction; an acknowledgement two, its count and its bit in the ledger,
 * which is what telling a broken promise from an allowed loss per message costs. The send count
 * has a single writer and is published with a release store, which needs no fence. The tracker
 * lock is a compare-and-set flag released by a plain release store, where {@code synchronized}
 * would pay a compare-and-set on entry and another on exit; it is held for a few nanoseconds and
 * contended only when one stream is read by several consumers.
 */
public final class StreamCounters {

    private static final VarHandle SENT;
    private static final VarHandle LOCKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SENT = lookup.findVarHandle(StreamCounters.class, "sent", long.class);
            LOCKED = lookup.findVarHandle(StreamCounters.class, "locked", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int streamId;
    @SuppressWarnings("unused") // through SENT
    private volatile long sent;
    @SuppressWarnings("unused") // through LOCKED
    private volatile boolean locked;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final SequenceTracker tracker;
    private final DeliveryLedger ledger;

    StreamCounters(int streamId, int window, DeliveryLedger ledger) {
        this.streamId = streamId;
        this.ledger = ledger;
        this.tracker = new SequenceTracker(window);
    }

    public int streamId() {
        return streamId;
    }

    /** Called only by the stream's producer thread, before the message is handed over. */
    void countSent() {
        long sequence = (long) SENT.getOpaque(this);
        ledger.sending(sequence);
        SENT.setRelease(this, sequence + 1);
    }

    /** Acknowledged or failed: no longer awaiting anything. */
    long settled() {
        return acked.get() + sendErrors.get();
    }

    long outstanding() {
        return (long) SENT.getAcquire(this) - acked.get() - sendErrors.get();
    }

    void countAcked(long sequence) {
        ledger.acked(sequence);
        acked.incrementAndGet();
    }

    void countSendError() {
        sendErrors.incrementAndGet();
    }

    boolean receive(long sequence, int lane) {
        lock();
        try {
            // the ledger's record is exact where the tracker's window is not: it sees late arrivals too
            ledger.received(sequence);
            return tracker.receive(sequence, lane);
        } finally {
            LOCKED.setRelease(this, false);
        }
    }

    public StreamSnapshot snapshot() {
        lock();
        try {
            return new StreamSnapshot(streamId, (long) SENT.getAcquire(this), acked.get(), sendErrors.get(),
                    tracker.unique, tracker.duplicates, tracker.reordered, tracker.late, tracker.gaps());
        } finally {
            LOCKED.setRelease(this, false);
        }
    }

    /** Messages sent and not received, split by acknowledgement; exact once the run has drained. */
    public Losses losses() {
        lock();
        try {
            return ledger.losses((long) SENT.getAcquire(this));
        } finally {
            LOCKED.setRelease(this, false);
        }
    }

    private void lock() {
        while (!LOCKED.compareAndSet(this, false, true)) {
            // the holder is inside a few nanoseconds of tracker work, unless it lost its core
            Thread.yield();
        }
    }
}
