package dev.msgbench.core.record;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Per-stream counts of a run, indexed by stream id. */
public final class Accounting {

    private final StreamCounters[] streams;
    private final AtomicLong foreign = new AtomicLong();

    public Accounting(int streamCount) {
        this(streamCount, SequenceTracker.WINDOW);
    }

    /**
     * @param received whether anything will be received: without consumers nothing can be lost,
     *                 and no {@link DeliveryLedger} is kept (it would hold two bits per message sent)
     */
    public Accounting(int streamCount, boolean received) {
        this(streamCount, SequenceTracker.WINDOW, received);
    }

    /** A smaller tracking window lets tests reach its edge with few messages. */
    public Accounting(int streamCount, int trackingWindow) {
        this(streamCount, trackingWindow, true);
    }

    private Accounting(int streamCount, int trackingWindow, boolean received) {
        streams = new StreamCounters[streamCount];
        for (int i = 0; i < streamCount; i++) {
            streams[i] = new StreamCounters(i, trackingWindow, received ? new DeliveryLedger() : DeliveryLedger.NONE);
        }
    }

    public int streamCount() {
        return streams.length;
    }

    public void countSent(int streamId) {
        streams[streamId].countSent();
    }

    public void countAcked(int streamId, long sequence) {
        streams[streamId].countAcked(sequence);
    }

    /** A stream's messages acknowledged or failed, which no longer count against its outstanding limit. */
    public long settled(int streamId) {
        return streams[streamId].settled();
    }

    /** Sent but neither acknowledged nor failed yet. */
    public long outstanding(int streamId) {
        return streams[streamId].outstanding();
    }

    public void countSendError(int streamId) {
        streams[streamId].countSendError();
    }

    /**
     * Notes the arrival of a message; returns false when it must not be recorded (duplicate, or
     * not one of this run's messages).
     */
    public boolean receive(int streamId, long sequence, int lane) {
        if (streamId < 0 || streamId >= streams.length || sequence < 0 || lane < 0) {
            foreign.incrementAndGet();
            return false;
        }
        return streams[streamId].receive(sequence, lane);
    }

    /** Messages that did not carry this run's header: another writer on the same destination. */
    public void countForeign() {
        foreign.incrementAndGet();
    }

    public long foreign() {
        return foreign.get();
    }

    public List<StreamSnapshot> perStream() {
        List<StreamSnapshot> snapshots = new ArrayList<>(streams.length);
        for (StreamCounters stream : streams) {
            snapshots.add(stream.snapshot());
        }
        return snapshots;
    }

    /**
     * Messages sent and never received, split by whether the system acknowledged them, over all
     * streams; exact, whatever the tracking window. Meaningful once the run has drained.
     */
    public Losses losses() {
        Losses total = Losses.NONE;
        for (StreamCounters stream : streams) {
            total = total.plus(stream.losses());
        }
        return total;
    }

    public StreamSnapshot total() {
        StreamSnapshot total = StreamSnapshot.zero();
        for (StreamCounters stream : streams) {
            total = total.plus(stream.snapshot());
        }
        return total;
    }
}
