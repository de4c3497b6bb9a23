package dev.msgbench.core.record;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-stream counts of a run, indexed by stream id, and per subscription: stream {@code s} goes
 * to topic {@code s mod topics}, whose every subscription expects each of its messages.
 */
public final class Accounting {

    private final StreamCounters[] streams;
    private final int topics;
    private final AtomicLong foreign = new AtomicLong();

    public Accounting(int streamCount) {
        this(streamCount, SequenceTracker.WINDOW);
    }

    /**
     * @param received whether anything will be received: without consumers nothing can be lost,
     *                 and no {@link DeliveryLedger} is kept (it would hold two bits per message sent)
     */
    public Accounting(int streamCount, boolean received) {
        this(streamCount, 1, 1, SequenceTracker.WINDOW, received);
    }

    /**
     * @param topics                stream s goes to topic s mod topics
     * @param subscriptionsPerTopic each of which receives every message of its topic
     */
    public Accounting(int streamCount, int topics, int subscriptionsPerTopic, boolean received) {
        this(streamCount, topics, subscriptionsPerTopic, SequenceTracker.WINDOW, received);
    }

    /**
     * Tracks each stream in memory sized from its rate, so that millions of slow streams fit where
     * each fast one holds a 2^20-message window (see {@link SequenceTracker#windowFor}).
     *
     * @param streamRateMsgsPerSec the most one stream sends per second, NaN when it sends as fast as it can
     */
    public Accounting(int streamCount, int topics, int subscriptionsPerTopic, boolean received,
                      double streamRateMsgsPerSec) {
        this(streamCount, topics, subscriptionsPerTopic, SequenceTracker.windowFor(streamRateMsgsPerSec), received,
                ledgerChunkShift(SequenceTracker.windowFor(streamRateMsgsPerSec)));
    }

    /** A ledger chunk no longer than the tracking window: a slow stream's first chunk is all it needs. */
    private static int ledgerChunkShift(int trackingWindow) {
        return Math.min(DeliveryLedger.CHUNK_SHIFT, Integer.numberOfTrailingZeros(trackingWindow));
    }

    /** Bytes one stream's counts take for each subscription, at first, for a stream of this rate (NaN: unpaced). */
    public static long bytesPerStreamAndSubscription(double streamRateMsgsPerSec) {
        int window = SequenceTracker.windowFor(streamRateMsgsPerSec);
        int chunkMessages = 1 << ledgerChunkShift(window);
        // the tracker's bits, the ledger's first chunk (two bits a message), and the objects around them
        return window / 8 + chunkMessages / 4 + 320;
    }

    /** A smaller tracking window lets tests reach its edge with few messages. */
    public Accounting(int streamCount, int trackingWindow) {
        this(streamCount, 1, 1, trackingWindow, true);
    }

    private Accounting(int streamCount, int topics, int subscriptionsPerTopic, int trackingWindow, boolean received) {
        this(streamCount, topics, subscriptionsPerTopic, trackingWindow, received, DeliveryLedger.CHUNK_SHIFT);
    }

    private Accounting(int streamCount, int topics, int subscriptionsPerTopic, int trackingWindow, boolean received,
                       int ledgerChunkShift) {
        if (topics < 1 || subscriptionsPerTopic < 1) {
            throw new IllegalArgumentException("topics and subscriptions >= 1: " + topics + ", " + subscriptionsPerTopic);
        }
        this.topics = topics;
        streams = new StreamCounters[streamCount];
        for (int i = 0; i < streamCount; i++) {
            DeliveryLedger[] ledgers = new DeliveryLedger[subscriptionsPerTopic];
            for (int k = 0; k < subscriptionsPerTopic; k++) {
                ledgers[k] = received ? new DeliveryLedger(ledgerChunkShift) : DeliveryLedger.NONE;
            }
            streams[i] = new StreamCounters(i, trackingWindow, ledgers);
        }
    }

    public int topics() {
        return topics;
    }

    /** Each of which receives every message of its topic. */
    public int subscriptionsPerTopic() {
        return streams.length == 0 ? 1 : streams[0].subscriptionCount();
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

    /** Aborted on purpose by the system (a transaction rolled back): see {@link StreamCounters#countAborted}. */
    public void countAborted(int streamId, long sequence) {
        streams[streamId].countAborted(sequence);
    }

    /** Messages the system aborted on purpose, over all streams. */
    public long aborted() {
        long total = 0;
        for (StreamCounters stream : streams) {
            total += stream.aborted();
        }
        return total;
    }

    /** Deliveries of aborted messages, over all streams and subscriptions; meaningful once the run has drained. */
    public long abortedDelivered() {
        long total = 0;
        for (StreamCounters stream : streams) {
            total += stream.abortedDelivered();
        }
        return total;
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

    /**
     * As {@link #receive(int, long, int)}, by subscription {@code subscription} of topic {@code topic}:
     * a message of a stream that does not go to that topic was misrouted, and counts as foreign.
     */
    public boolean receive(int topic, int subscription, int streamId, long sequence, int lane) {
        if (streamId < 0 || streamId >= streams.length || sequence < 0 || lane < 0 || streamId % topics != topic) {
            foreign.incrementAndGet();
            return false;
        }
        return streams[streamId].receive(subscription, sequence, lane);
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

    /** Per topic and subscription, in that order, each over the topic's streams. */
    public List<SubscriptionSnapshot> perSubscription() {
        List<SubscriptionSnapshot> result = new ArrayList<>();
        for (int t = 0; t < topics; t++) {
            for (int k = 0; k < subscriptionsPerTopic(); k++) {
                StreamSnapshot counts = StreamSnapshot.zero();
                Losses losses = Losses.NONE;
                for (int s = t; s < streams.length; s += topics) {
                    counts = counts.plus(streams[s].snapshot(k));
                    losses = losses.plus(streams[s].losses(k));
                }
                result.add(new SubscriptionSnapshot(t, k, counts, losses));
            }
        }
        return result;
    }

    public StreamSnapshot total() {
        StreamSnapshot total = StreamSnapshot.zero();
        for (StreamCounters stream : streams) {
            total = total.plus(stream.snapshot());
        }
        return total;
    }
}
