package dev.msgbench.core;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the first of many asynchronous failures for the thread that can report it, and counts
 * them all. Later failures are counted rather than kept or attached as suppressed: a broker
 * outage can fail a million sends, and keeping them all would exhaust the heap.
 *
 * <p>Safe for any number of threads. Asking whether anything failed is one volatile read, cheap
 * enough for a check before every message.
 */
public final class FirstFailure {

    private final AtomicReference<Throwable> first = new AtomicReference<>();
    private final AtomicLong count = new AtomicLong();

    public void add(Throwable failure) {
        // the first is set before it is counted: whoever sees a count sees a failure to report
        first.compareAndSet(null, failure);
        count.incrementAndGet();
    }

    /** The first failure added, or null. */
    public Throwable first() {
        return first.get();
    }

    /** Every failure added, the first among them. */
    public long count() {
        return count.get();
    }

    /** Throws {@link #reported} when anything failed. */
    public void throwIfAny(String what) throws IOException {
        IOException e = reported(what);
        if (e != null) {
            throw e;
        }
    }

    /**
     * The first failure wrapped so that the trace also shows where it was reported: "{@code what}
     * failed: first's message (and N later failures)"; null when nothing failed.
     */
    public IOException reported(String what) {
        Throwable t = first.get();
        if (t == null) {
            return null;
        }
        long later = Math.max(0, count.get() - 1);
        return new IOException(what + " failed: " + t.getMessage()
                + (later > 0 ? " (and " + later + " later failures)" : ""), t);
    }
}
