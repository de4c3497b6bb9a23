package dev.msgbench.core.run;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the first of many asynchronous failures and counts the rest. Later failures are
 * counted rather than attached as suppressed: a broker outage can fail a million sends, and
 * keeping them all would exhaust the heap.
 */
final class FirstError {

    private final AtomicReference<Throwable> first = new AtomicReference<>();
    private final AtomicLong count = new AtomicLong();

    void add(Throwable error) {
        count.incrementAndGet();
        first.compareAndSet(null, error);
    }

    Throwable first() {
        return first.get();
    }

    long count() {
        return count.get();
    }
}
