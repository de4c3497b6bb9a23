package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;

import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.PublishOptions;

/**
 * Proves, before a producer starts, that its server routes the stream's subject to the stream.
 * In a cluster only the stream's leader listens on the subject, and the other servers learn of
 * it over the routes after the stream was created: a message published before that gets "no
 * responders" and would count as a failed send of the run.
 *
 * <p>The probe names a stream that is not this one, so the leader refuses it without storing it;
 * that refusal is the proof. Nothing reaches the stream's consumers.
 */
final class StreamReach {

    /** JetStream's "expected stream does not match". */
    static final int STREAM_MISMATCH = 10060;
    private static final long RETRY_PAUSE_MILLIS = 20;

    private StreamReach() {
    }

    /**
     * Publishes refused probes on {@code subject} until the stream's leader answers one.
     *
     * @throws IllegalStateException when no answer came within {@code timeout}
     */
    static void await(JetStream js, String subject, String stream, Duration timeout) throws Exception {
        PublishOptions wrongStream = PublishOptions.builder().expectedStream(stream + "-probe").build();
        long deadline = System.nanoTime() + timeout.toNanos();
        String last;
        do {
            try {
                js.publish(subject, new byte[0], wrongStream);
                throw new IllegalStateException("JetStream stored a probe on " + subject
                        + " that named another stream than " + stream);
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() == STREAM_MISMATCH) {
                    return;
                }
                last = e.getMessage();
            } catch (IOException e) {
                // "no responders" while the subject's interest is still on its way over the routes
                last = e.getMessage();
            }
            Thread.sleep(RETRY_PAUSE_MILLIS);
        } while (System.nanoTime() - deadline < 0);
        throw new IllegalStateException("stream " + stream + " did not answer on " + subject + " within "
                + timeout.toSeconds() + " s: " + last);
    }
}
