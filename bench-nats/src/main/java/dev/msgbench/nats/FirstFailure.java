package dev.msgbench.nats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the first asynchronous failure of a connection for the thread that can report it (the
 * next publish, flush or close). Later ones are counted, not kept: an outage fails thousands.
 */
final class FirstFailure {

    private final AtomicReference<Throwable> first = new AtomicReference<>();
    private final AtomicLong later = new AtomicLong();

    void add(Throwable error) {
        if (!first.compareAndSet(null, error)) {
            later.incrementAndGet();
        }
    }

    /** Rethrows the first failure, wrapped so that the trace shows where it was reported. */
    void throwIfAny(String what) throws java.io.IOException {
        Throwable t = first.get();
        if (t != null) {
            long more = later.get();
            throw new java.io.IOException(what + " failed: " + t.getMessage()
                    + (more > 0 ? " (and " + more + " later errors)" : ""), t);
        }
    }
}
