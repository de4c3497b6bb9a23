package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

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
 * them. {@code RecorderBenchmark} measures both guards (two values: 8.6 to 9.1 ns here against
 * 21 to 22 ns for two SingleWriterRecorders, jmh-results/20261129-recorder.txt), and
 * {@code ThreadRecordersStressTest} checks that every value is counted exactly once.
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
    /** The values of the open batch, recorded when it closes. Owner only. */
    private final BatchValues batch = new BatchValues();
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
        Histograms h = enter();
        h.of(kind, inMeasurement).recordValue(nonNegative(valueNanos));
        exit();
    }

    /** Two values of one message in one critical section. */
    public void record(HistogramKind kind, long valueNanos, HistogramKind otherKind, long otherValueNanos,
                boolean inMeasurement) {
        Histograms h = enter();
        h.of(kind, inMeasurement).recordValue(nonNegative(valueNanos));
        h.of(otherKind, inMeasurement).recordValue(nonNegative(otherValueNanos));
        exit();
    }

    /**
     * Starts collecting the value pairs of many messages received together (the records of one
     * poll), to be recorded in one critical section by {@link #closeBatch}. Owner only; batches do
     * not nest.
     */
    public void openBatch(HistogramKind kind, HistogramKind otherKind) {
        batch.open(kind, otherKind);
    }

    /** One message's two values, of the kinds the open batch was given, in the order given there. */
    public void addToBatch(long valueNanos, long otherValueNanos, boolean inMeasurement) {
        batch.add(nonNegative(valueNanos), nonNegative(otherValueNanos), inMeasurement);
    }

    /**
     * Records the open batch's values in one critical section: one fence for all of them.
     *
     * <p>The first and the last go in first. Records handed over together share one receive time,
     * so along one partition's records (oldest first) the latency only falls, and while a backlog
     * drains it falls below each interval's minimum with every record: HdrHistogram publishes a new
     * minimum or maximum with a compare-and-set, which recording the extremes first leaves to them.
     */
    public void closeBatch() {
        int n = batch.size;
        if (n > 0) {
            Histograms h = enter();
            batch.recordInto(h, 0);
            for (int i = n - 1; i > 0; i--) {
                batch.recordInto(h, i);
            }
            exit();
        }
        batch.size = 0;
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

    /**
     * The value pairs of an open batch; grown to the largest batch seen, never shrunk, and nothing
     * on a thread that never receives in batches.
     */
    private static final class BatchValues {
        /** Kafka's consumer hands over up to 500 records a poll by default. */
        private static final int FIRST_CAPACITY = 512;
        private HistogramKind kind = HistogramKind.LATENCY;
        private HistogramKind otherKind = HistogramKind.SERVICE;
        /** Pair i at 2i and 2i + 1. */
        private long[] values = new long[0];
        private boolean[] measured = new boolean[0];
        int size;

        void open(HistogramKind kind, HistogramKind otherKind) {
            this.kind = kind;
            this.otherKind = otherKind;
            size = 0;
        }

        void add(long value, long otherValue, boolean inMeasurement) {
            if (size == measured.length) {
                int capacity = Math.max(FIRST_CAPACITY, 2 * size);
                values = Arrays.copyOf(values, 2 * capacity);
                measured = Arrays.copyOf(measured, capacity);
            }
            values[2 * size] = value;
            values[2 * size + 1] = otherValue;
            measured[size++] = inMeasurement;
        }

        void recordInto(Histograms h, int i) {
            h.of(kind, measured[i]).recordValue(values[2 * i]);
            h.of(otherKind, measured[i]).recordValue(values[2 * i + 1]);
        }
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
