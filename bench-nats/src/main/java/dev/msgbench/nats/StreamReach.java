package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;

/**
 * Proves, before a producer starts, that its server routes the stream's subject to the stream.
 * In a cluster only the stream's leader listens on the subject, and the other servers learn of
 * it over the routes after the stream was created: a message published before that gets "no
 * responders" and would count as a failed send of the run.
 *
 * <p>The probe names a stream that is not this one, so the leader refuses it without storing it;
 * that refusal is the proof. Nothing reaches the stream's consumers.
 *
 * <p>The subjects of the streams sharing a connection are probed together ({@link #awaitAll}): their
 * probes go out back to back, a window of them awaiting their refusals at once, so that the round
 * trips overlap instead of adding up.
 */
final class StreamReach {

    /** JetStream's "expected stream does not match". */
    static final int STREAM_MISMATCH = 10060;
    private static final long RETRY_PAUSE_MILLIS = 20;
    /**
     * Probes awaiting their answer at once: enough that the round trips overlap, few enough that the
     * streams' leaders are not handed thousands of refusals in one go while they still start up.
     */
    static final int IN_FLIGHT = 256;

    private StreamReach() {
    }

    /** A producer stream's subject and the JetStream stream that should store it. */
    record Target(String subject, String stream) {
    }

    /**
     * As {@link #await} for all {@code targets} at once: publishes a refused probe on each, up to
     * {@link #IN_FLIGHT} awaiting their answers at a time, and probes again, after a pause, only
     * those that got no refusal.
     *
     * @throws IllegalStateException naming the first target without an answer within {@code timeout}
     */
    static void awaitAll(JetStream js, List<Target> targets, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Target> missing = targets;
        while (true) {
            List<Target> again = new ArrayList<>();
            String last = null;
            ArrayDeque<CompletableFuture<PublishAck>> answers = new ArrayDeque<>();
            for (int sent = 0, answered = 0; answered < missing.size(); ) {
                if (sent < missing.size() && answers.size() < IN_FLIGHT) {
                    Target target = missing.get(sent++);
                    answers.add(js.publishAsync(target.subject(), new byte[0], wrongStream(target.stream())));
                    continue;
                }
                Target target = missing.get(answered++);
                String refusal = refusal(answers.poll(), target, deadline);
                if (refusal != null) {
                    last = again.isEmpty() ? refusal : last;
                    again.add(target);
                }
            }
            if (again.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                Target first = again.get(0);
                throw new IllegalStateException(noAnswer(first.stream(), first.subject(), timeout, last)
                        + (again.size() == 1 ? "" : "; nor on " + (again.size() - 1)
                        + (again.size() == 2 ? " other subject" : " other subjects") + " of its batch"));
            }
            missing = again;
            Thread.sleep(RETRY_PAUSE_MILLIS);
        }
    }

    /** Null when the stream's leader refused the probe, as it should; else why the probe proved nothing. */
    private static String refusal(CompletableFuture<PublishAck> answer, Target target, long deadline)
            throws InterruptedException {
        try {
            answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            throw new IllegalStateException("JetStream stored a probe on " + target.subject()
                    + " that named another stream than " + target.stream());
        } catch (ExecutionException e) {
            // jnats wraps the refusal in a RuntimeException of its own
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof JetStreamApiException api && api.getApiErrorCode() == STREAM_MISMATCH) {
                    return null;
                }
            }
            // "no responders" while the subject's interest is still on its way over the routes
            return String.valueOf(e.getCause());
        } catch (TimeoutException e) {
            answer.cancel(false);
            return "no answer";
        }
    }

    private static PublishOptions wrongStream(String stream) {
        return PublishOptions.builder().expectedStream(stream + "-probe").build();
    }

    private static String noAnswer(String stream, String subject, Duration timeout, String last) {
        return "stream " + stream + " did not answer on " + subject + " within " + timeout.toSeconds() + " s: " + last;
    }

    /**
     * Publishes refused probes on {@code subject} until the stream's leader answers one.
     *
     * @throws IllegalStateException when no answer came within {@code timeout}
     */
    static void await(JetStream js, String subject, String stream, Duration timeout) throws Exception {
        PublishOptions wrongStream = wrongStream(stream);
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
        throw new IllegalStateException(noAnswer(stream, subject, timeout, last));
    }
}
