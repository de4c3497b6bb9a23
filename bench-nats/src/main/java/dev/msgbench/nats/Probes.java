package dev.msgbench.nats;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
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

    private static final long RESEND_MILLIS = 20;

    private final CountDownLatch[] arrived;

    Probes(int streams) {
        arrived = new CountDownLatch[streams];
        for (int s = 0; s < streams; s++) {
            arrived[s] = new CountDownLatch(1);
        }
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
            if (stream >= 0 && stream < arrived.length) {
                arrived[stream].countDown();
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
            sendProbe.run();
            if (arrived[streamId].await(RESEND_MILLIS, TimeUnit.MILLISECONDS)) {
                return;
            }
        } while (System.nanoTime() - deadline < 0);
        throw new IllegalStateException("no probe of stream " + streamId + " came through " + path + " within "
                + timeout.toSeconds() + " s: the subscriptions did not reach every server");
    }
}
