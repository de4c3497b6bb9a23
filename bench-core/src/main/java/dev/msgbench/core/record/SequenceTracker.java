package dev.msgbench.core.record;

import java.util.Arrays;

/**
 * Which sequence numbers of one stream have arrived: counts unique, duplicated and reordered
 * messages in memory that does not grow with the length of the run.
 *
 * <p>IMPLEMENTATION NOTES: a ring of {@link #WINDOW} bits covers sequences
 * {@code [base, base + WINDOW)}. Everything below {@code base} is settled. The base follows
 * the lowest missing sequence as messages arrive in order; when a sequence arrives
 * {@code WINDOW} or more above it, the base jumps and the holes it passes over are settled as
 * missing. A message that later arrives below such a jump cannot be told from a duplicate (its
 * bit is gone): it is counted as received and as {@code late}, so the result shows it.
 *
 * <p>Order is judged per lane: systems such as Kafka order messages only within a partition,
 * so a stream spread over partitions is reordered only if one partition delivers out of order.
 *
 * <p>Not thread-safe: {@link Accounting} serialises calls per stream.
 */
final class SequenceTracker {

    /** 2^20 sequences, 128 KiB: a second of reordering at a million messages per second. */
    static final int WINDOW = 1 << 20;
    /** The smallest window, one word: for a stream that sends a message every few seconds. */
    static final int MIN_WINDOW = 64;
    /** A window covers this much of a slow stream's sending: reordering seen later counts as late, never lost. */
    private static final double WINDOW_SECONDS = 4;

    /**
     * A window for a stream that sends at most {@code msgsPerSec}: {@link #WINDOW_SECONDS} of its
     * messages, at least {@link #MIN_WINDOW} and at most {@link #WINDOW}, so that a run of millions of
     * slow streams holds a few bytes per stream where one fast stream holds 128 KiB; {@link #WINDOW}
     * for a stream without a rate (NaN: as fast as it can).
     */
    static int windowFor(double msgsPerSec) {
        if (!(msgsPerSec >= 0) || msgsPerSec * WINDOW_SECONDS >= WINDOW) {
            return WINDOW;
        }
        int wanted = (int) Math.ceil(msgsPerSec * WINDOW_SECONDS);
        return Math.max(MIN_WINDOW, Integer.highestOneBit(Math.max(1, wanted - 1)) << 1);
    }

    private final long[] bits;
    private final int window;
    private long base;
    /** Sequences below this were settled by a jump of the base, received or not. */
    private long jumpedBelow;
    private long highest = -1;
    private long[] laneHighest = new long[0];

    long unique;
    long duplicates;
    long reordered;
    long late;

    SequenceTracker() {
        this(WINDOW);
    }

    SequenceTracker(int window) {
        if (Integer.bitCount(window) != 1 || window < 64) {
            throw new IllegalArgumentException("window must be a power of two >= 64: " + window);
        }
        this.window = window;
        this.bits = new long[window / 64];
    }

    /** Returns false when the message is a duplicate, which must not be recorded again. */
    boolean receive(long sequence, int lane) {
        if (sequence == base) {
            // the next one expected, as nearly every message arrives: its bit is clear (the base
            // would be past it otherwise) and would be cleared again at once
            unique++;
            noteOrder(sequence, lane);
            if (sequence > highest) {
                highest = sequence;
            }
            base++;
            advanceBase();
            return true;
        }
        if (sequence < base) {
            if (sequence >= jumpedBelow) {
                duplicates++;
                return false;
            }
            late++;
            unique++;
            noteOrder(sequence, lane);
            return true;
        }
        if (sequence - base >= window) {
            jumpBaseTo(sequence - window + 1);
        }
        int index = (int) (sequence & (window - 1));
        long mask = 1L << index;
        int word = index >>> 6;
        if ((bits[word] & mask) != 0) {
            duplicates++;
            return false;
        }
        bits[word] |= mask;
        unique++;
        noteOrder(sequence, lane);
        if (sequence > highest) {
            highest = sequence;
        }
        if (sequence == base) {
            // a jump of the base can land on it
            advanceBase();
        }
        return true;
    }

    /** Sequences below the highest one received that have not arrived (yet). */
    long gaps() {
        return Math.max(0, highest + 1 - unique);
    }

    private void noteOrder(long sequence, int lane) {
        if (lane >= laneHighest.length) {
            int old = laneHighest.length;
            laneHighest = Arrays.copyOf(laneHighest, Math.max(lane + 1, old * 2));
            Arrays.fill(laneHighest, old, laneHighest.length, -1L);
        }
        if (sequence < laneHighest[lane]) {
            reordered++;
        } else {
            laneHighest[lane] = sequence;
        }
    }

    private boolean isSet(long sequence) {
        int index = (int) (sequence & (window - 1));
        return (bits[index >>> 6] & (1L << index)) != 0;
    }

    private void clear(long sequence) {
        int index = (int) (sequence & (window - 1));
        bits[index >>> 6] &= ~(1L << index);
    }

    private void advanceBase() {
        while (isSet(base)) {
            clear(base);
            base++;
        }
    }

    private void jumpBaseTo(long newBase) {
        long clearUpTo = Math.min(newBase, base + window);
        for (long s = base; s < clearUpTo; s++) {
            clear(s);
        }
        base = newBase;
        jumpedBelow = newBase;
        advanceBase();
    }
}
