package dev.msgbench.core.record;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The counts of one producer stream. Sends are counted by the stream's one producer thread,
 * acknowledgements by client callback threads, receipts under the stream's tracker lock.
 */
public final class StreamCounters {

    private final int streamId;
    private volatile long sent;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final SequenceTracker tracker;

    StreamCounters(int streamId, int window) {
        this.streamId = streamId;
        this.tracker = new SequenceTracker(window);
    }

    public int streamId() {
        return streamId;
    }

    /** Called only by the stream's producer thread, before the message is handed over. */
    void countSent() {
        sent = sent + 1; // single writer: a plain increment is safe
    }

    long outstanding() {
        return sent - acked.get() - sendErrors.get();
    }

    void countAcked() {
        acked.incrementAndGet();
    }

    void countSendError() {
        sendErrors.incrementAndGet();
    }

    synchronized boolean receive(long sequence, int lane) {
        return tracker.receive(sequence, lane);
    }

    public synchronized StreamSnapshot snapshot() {
        long s = sent;
        return new StreamSnapshot(streamId, s, acked.get(), sendErrors.get(), tracker.unique,
                tracker.duplicates, tracker.reordered, tracker.late, tracker.gaps());
    }
}
