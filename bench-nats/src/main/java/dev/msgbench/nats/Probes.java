package dev.msgbench.nats;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import dev.msgbench.core.payload.PayloadHeader;

/**
 * Proves, before a producer starts, that what it publishes reaches its consumer. In a cluster a
 * subscription is known on the other servers only after it travelled over the routes; a message
 * published before that is dropped and would count as lost.
 *
 * <p>A probe is shorter than any message of a run (which carries at least the header), so the
 * receiving side tells it apart without any other marker and never hands it to the core.
 *
 * <p>Streams that share a connection are proven together ({@link #awaitAll}, by {@link ProbeBatches}):
 * their probes go out back to back and are awaited at once, so proving them costs about one round
 * trip per connection rather than one per stream.
 */
final class Probes {

    /** How long a probe may stay away, with no other probe arriving meanwhile, before it is sent again. */
    private static final long RESEND_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** A batch's rounds wait at most 64 times {@link #RESEND_NANOS} (1.3 s) for the first of their probes. */
    private static final int MAX_BACKOFF_SHIFT = 6;

    /**
     * Which streams' probes came, guarded by this: a bit per stream rather than a latch each, since
     * OMB's largest workloads have 4,000,000 producer streams (a latch each would take 200 MB).
     */
    private final BitSet arrived;
    private final int streams;
    /** Probes that came, counting repeats: whether any came while a batch waits; guarded by this. */
    private long arrivals;

    Probes(int streams) {
        this.streams = streams;
        this.arrived = new BitSet(streams);
    }

    static boolean isProbe(int length) {
        return length < PayloadHeader.BYTES;
    }

    static byte[] probe(int streamId) {
        return ByteBuffer.allocate(4).putInt(streamId).array();
    }

    /** Called by the receiving side with a probe's bytes. */
    void arrived(byte[] probe) {
        if (probe.length == 4) {
            int stream = ByteBuffer.wrap(probe).getInt();
            if (stream >= 0 && stream < streams) {
                synchronized (this) {
                    arrived.set(stream);
                    arrivals++;
                    notifyAll();
                }
            }
        }
    }

    /** Sends the probes of a batch of streams: each in turn, then {@link #sent()} once per round. */
    interface Sender {
        void send(int streamId);

        /** After a round's probes: pushes out what the sender buffered. */
        default void sent() {
        }
    }

    /**
     * Sends the probes of all {@code streamIds} back to back and waits until every one arrived,
     * sending again only those still missing once none arrived for {@link #RESEND_NANOS}, twice as
     * long after each round.
     *
     * @param path what a stream's probe travels through, for the error
     * @throws IllegalStateException naming the first stream still missing when not all arrived
     *                               within {@code timeout}
     */
    void awaitAll(int[] streamIds, Duration timeout, Sender sender, IntFunction<String> path) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        // the streams before it have all arrived: each wake-up looks only at what is new
        int proven = 0;
        int round = 0;
        do {
            // sent outside the lock: the receiving side takes it to say a probe came
            for (int i = proven; i < streamIds.length; i++) {
                if (!hasArrived(streamIds[i])) {
                    sender.send(streamIds[i]);
                }
            }
            sender.sent();
            // a batch on a busy machine may take longer than one interval to start arriving: each
            // round waits twice as long as the one before, so that it is not sent whole again and again
            proven = provenWithin(streamIds, proven, RESEND_NANOS << Math.min(round++, MAX_BACKOFF_SHIFT), deadline);
            if (proven == streamIds.length) {
                return;
            }
        } while (System.nanoTime() - deadline < 0);
        int missing = streamIds[proven];
        int others = 0;
        for (int i = proven + 1; i < streamIds.length; i++) {
            others += hasArrived(streamIds[i]) ? 0 : 1;
        }
        throw new IllegalStateException(noProbe(missing, path.apply(missing), timeout) + (others == 0 ? ""
                : "; nor did those of " + others + (others == 1 ? " other stream" : " other streams") + " of its batch"));
    }

    synchronized boolean hasArrived(int streamId) {
        return arrived.get(streamId);
    }

    /**
     * How many of {@code streamIds}, from the first, had arrived when all had, none came for
     * {@code quietNanos} or the deadline passed: a large batch takes longer than that to come
     * through, and is not sent again while it is still coming.
     */
    private synchronized int provenWithin(int[] streamIds, int from, long quietNanos, long deadline)
            throws InterruptedException {
        long end = System.nanoTime() + quietNanos;
        long seen = arrivals;
        int proven = from;
        while (true) {
            while (proven < streamIds.length && arrived.get(streamIds[proven])) {
                proven++;
            }
            if (arrivals != seen) {
                seen = arrivals;
                end = System.nanoTime() + quietNanos;
            }
            long now = System.nanoTime();
            long left = Math.min(end - now, deadline - now);
            if (proven == streamIds.length || left <= 0) {
                return proven;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /**
     * Sends probes of {@code streamId} until one arrives; returns at once when one already did (its
     * batch's {@link #awaitAll} proved it).
     *
     * @throws IllegalStateException when none arrived within {@code timeout}
     */
    void await(int streamId, Duration timeout, Runnable sendProbe, String path) throws InterruptedException {
        if (hasArrived(streamId)) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            // sent outside the lock: the receiving side takes it to say a probe came
            sendProbe.run();
            if (arrivedWithin(streamId, RESEND_NANOS)) {
                return;
            }
        } while (System.nanoTime() - deadline < 0);
        throw new IllegalStateException(noProbe(streamId, path, timeout));
    }

    private static String noProbe(int streamId, String path, Duration timeout) {
        return "no probe of stream " + streamId + " came through " + path + " within " + timeout.toSeconds()
                + " s: the subscriptions did not reach every server";
    }

    private synchronized boolean arrivedWithin(int streamId, long nanos) throws InterruptedException {
        long end = System.nanoTime() + nanos;
        while (!arrived.get(streamId)) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
