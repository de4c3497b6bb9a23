package dev.msgbench.nats;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.payload.PayloadHeader;

/**
 * Proves, before a producer starts, that what it publishes reaches its consumer. In a cluster a
 * subscription is known on the other servers only after it travelled over the routes; a message
 * published before that is dropped and would count as lost.
 *
 * <p>A probe is shorter than any message of a run (which carries at least the header), so the
 * receiving side tells it apart without any other marker and never hands it to the core.
 */
final class Probes {

    private static final long RESEND_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * Which streams' probes came, guarded by this: a bit per stream rather than a latch each, since
     * OMB's largest workloads have 4,000,000 producer streams (a latch each would take 200 MB).
     */
    private final BitSet arrived;
    private final int streams;

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
                    notifyAll();
                }
            }
        }
    }

    /**
     * Sends probes of {@code streamId} until one arrives.
     *
     * @throws IllegalStateException when none arrived within {@code timeout}
     */
    void await(int streamId, Duration timeout, Runnable sendProbe, String path) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            // sent outside the lock: the receiving side takes it to say a probe came
            sendProbe.run();
            if (arrivedWithin(streamId, RESEND_NANOS)) {
                return;
            }
        } while (System.nanoTime() - deadline < 0);
        throw new IllegalStateException("no probe of stream " + streamId + " came through " + path + " within "
                + timeout.toSeconds() + " s: the subscriptions did not reach every server");
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
