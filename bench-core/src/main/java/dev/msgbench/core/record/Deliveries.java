package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one subscription received of one producer stream: which sequences, in what order, and
 * which of them the system had acknowledged. Every subscription of a topic receives every message
 * of the topic's streams, so each has its own, and a message one subscription missed is lost for
 * it alone.
 *
 * <p>IMPLEMENTATION NOTES: the lock is a compare-and-set flag released by a plain release store,
 * where {@code synchronized} would pay a compare-and-set on entry and another on exit; it is held
 * for a few nanoseconds and contended only when one stream is read by several consumers of the
 * same subscription. Subscriptions have a lock each, so fan-out adds no contention.
 */
final class Deliveries {

    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(Deliveries.class, "locked", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through LOCKED
    private volatile boolean locked;
    final SequenceTracker tracker;
    final DeliveryLedger ledger;

    Deliveries(int window, DeliveryLedger ledger) {
        this.tracker = new SequenceTracker(window);
        this.ledger = ledger;
    }

    boolean receive(long sequence, int lane) {
        lock();
        try {
            // the ledger's record is exact where the tracker's window is not: it sees late arrivals too
            ledger.received(sequence);
            return tracker.receive(sequence, lane);
        } finally {
            unlock();
        }
    }

    void lock() {
        while (!LOCKED.compareAndSet(this, false, true)) {
            // the holder is inside a few nanoseconds of tracker work, unless it lost its core
            Thread.yield();
        }
    }

    void unlock() {
        LOCKED.setRelease(this, false);
    }
}
