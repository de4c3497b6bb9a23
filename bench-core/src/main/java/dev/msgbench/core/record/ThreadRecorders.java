package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.HdrHistogram.Histogram;

/**
 * The histograms one thread records into: one per histogram kind and phase (warm-up or
 * measured). The owning thread records without locks; the sampling thread swaps the whole set
 * out without stopping it.
 *
 * <p>IMPLEMENTATION NOTES: HdrHistogram's SingleWriterRecorder costs two atomic increments per
 * value (its phaser's enter and exit), and a message is recorded two or three times, which made
 * the recorders the largest part of the engine's per-message cost. Here the writer pays one
 * StoreLoad fence per message however many values it records, or one per batch of messages
 * received together ({@link #openBatch}), and none on exit:
 * <ul>
 * <li>writer: store an odd {@code epoch} (volatile: the fence), read {@code active}, record,
 * store the next even {@code epoch} (release: it publishes the recorded counts);</li>
 * <li>sampler: store a fresh {@code active} (volatile), then read {@code epoch}. Even: the
 * writer is outside and its next entry will see the fresh set. Odd: wait until the epoch moves
 * on; the section that may still hold the old set has then ended.</li>
 * </ul>
 * Both sides store then load with volatile semantics, so one of them always sees the other
 * (the same argument as Dekker's). Only one sampler at a time: {@link Recorders} serialises
 * them.
 *
 * <p>Only the owning thread may record. A recording site that runs on one thread keeps its
 * instance (a thread-local lookup costs as much as the recording); {@link Recorders#current()}.
 */
public final class ThreadRecorders {

    /** Three significant digits: 0.1% resolution at every magnitude, from 1 ns up. */
    static final int SIGNIFICANT_DIGITS = 3;

    private static final int KINDS = HistogramKind.values().length;
    private static final VarHandle EPOCH;
    private static final VarHandle ACTIVE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EPOCH = lookup.findVarHandle(ThreadRecorders.class, "epoch", long.class);
            ACTIVE = lookup.findVarHandle(ThreadRecorders.class, "active", Histograms.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Thread owner;
    /** Odd while the owning thread records. */
    @SuppressWarnings("unused") // through EPOCH
    private volatile long epoch;
    /** The owning thread's copy of {@link #epoch}: it is the only writer. */
    private long writerEpoch;
    @SuppressWarnings("unused") // through ACTIVE
    private volatile Histograms active = new Histograms();
    /** The set the open batch records into; null outside one. Owner only. */
    private Histograms batch;
    /** The set the next sample swaps in; touched by the sampler only. */
    private Histograms spare = new Histograms();

    ThreadRecorders(Thread owner) {
        this.owner = owner;
    }

    /** Whether the calling thread is the one that may record here. */
    public boolean isCurrentThread() {
        return owner == Thread.currentThread();
    }

    /**
     * Records one value.
     *
     * @param inMeasurement false for messages intended during the warm-up, which stay out of the
     *                      results but still appear in the interval log
     */
    public void record(HistogramKind kind, boolean inMeasurement, long valueNanos) {
        Histograms open = batch;
        Histograms h = open != null ? open : enter();
        h.of(kind, inMeasurement).recordValue(nonNegative(valueNanos));
        if (open == null) {
            exit();
        }
    }

    /** Two values of one message in one critical section: the open batch's, or one of their own. */
    public void record(HistogramKind kind, long valueNanos, HistogramKind otherKind, long otherValueNanos,
                boolean inMeasurement) {
        Histograms open = batch;
        Histograms h = open != null ? open : enter();
        h.of(kind, inMeasurement).recordValue(nonNegative(valueNanos));
        h.of(otherKind, inMeasurement).recordValue(nonNegative(otherValueNanos));
        if (open == null) {
            exit();
        }
    }

    /**
     * Opens one critical section for the values of many messages (the records of one poll): the
     * records until {@link #closeBatch} pay no fence each. The sampler waits for the section to
     * close, so a batch holds only messages already at hand. Owner only; batches do not nest.
     */
    public void openBatch() {
        batch = enter();
    }

    /** Closes the section {@link #openBatch} opened, publishing what was recorded in it. */
    public void closeBatch() {
        batch = null;
        exit();
    }

    private Histograms enter() {
        EPOCH.setVolatile(this, ++writerEpoch);
        return (Histograms) ACTIVE.getVolatile(this);
    }

    private void exit() {
        EPOCH.setRelease(this, ++writerEpoch);
    }

    /**
     * A negative value means the clock was misused; it is recorded as 0 rather than thrown in a
     * driver's callback thread, and the receive-side checks count it.
     */
    private static long nonNegative(long valueNanos) {
        return Math.max(0, valueNanos);
    }

    /** Adds this thread's histograms since the last call into the given per-kind totals. */
    void drainInto(Histogram[] allPhases, Histogram[] measuredOnly) {
        Histograms fresh = spare;
        Histograms old = (Histograms) ACTIVE.getAndSet(this, fresh);
        long seen = (long) EPOCH.getVolatile(this);
        if ((seen & 1) != 0) {
            while ((long) EPOCH.getVolatile(this) == seen) {
                // the writer is inside one short section; on a small machine it may need our core to leave it
                Thread.yield();
            }
        }
        for (int k = 0; k < KINDS; k++) {
            allPhases[k].add(old.warmup[k]);
            allPhases[k].add(old.measured[k]);
            measuredOnly[k].add(old.measured[k]);
        }
        old.reset();
        spare = old;
    }

    /** One histogram per kind and phase. */
    private static final class Histograms {
        final Histogram[] warmup = new Histogram[KINDS];
        final Histogram[] measured = new Histogram[KINDS];

        Histograms() {
            for (int k = 0; k < KINDS; k++) {
                // auto-resizing: no value is ever clamped or dropped, however large
                warmup[k] = new Histogram(SIGNIFICANT_DIGITS);
                measured[k] = new Histogram(SIGNIFICANT_DIGITS);
            }
        }

        Histogram of(HistogramKind kind, boolean inMeasurement) {
            return inMeasurement ? measured[kind.ordinal()] : warmup[kind.ordinal()];
        }

        void reset() {
            for (int k = 0; k < KINDS; k++) {
                warmup[k].reset();
                measured[k].reset();
            }
        }
    }
}
