package dev.msgbench.nats;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream publishing into its topic's JetStream stream and awaiting each PubAck
 * asynchronously, at most {@code maxPending} at once: beyond that publish blocks, and the engine
 * measures the wait as send delay. On a connection shared with other streams the limit is still
 * per stream, and each PubAck still reaches its own stream's listener, through its own future.
 *
 * <p>While jnats reconnects, a publish waits in its reconnect buffer (or, once that is full, is
 * refused and counts as failed); a PubAck that does not come within jnats' request cleanup interval
 * (5 s) fails its future, so no message is awaited for longer and none is dropped unreported.
 *
 * <p>IMPLEMENTATION NOTES: jnats keeps a reference to the array until its writer thread has sent
 * it, and the engine reuses the array as soon as publish returns, so each message is copied.
 */
final class JsPublisher implements Publisher {

    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final Connection connection;
    private final JnatsLink link;
    /** Lets go of the connection: closes it unless other streams still publish on it. */
    private final AutoCloseable release;
    private final FirstFailure failures;
    private final JetStream jetStream;
    private final String subject;
    /** With --keys, the subject of each key under the stream's: built once, indexed by key. */
    private final String[] keySubjects;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    private final AckListener acks;
    private final int maxPending;
    private final Semaphore pending;

    /**
     * @param release     closed with this publisher: lets go of the connection, shared or not
     * @param keySubjects the subject of each record key, or null without keys
     */
    JsPublisher(JnatsLink link, AutoCloseable release, JetStream jetStream, String subject, String[] keySubjects,
                AckListener acks, int maxPending) {
        this.link = link;
        this.connection = link.connection;
        this.release = release;
        this.failures = link.failures;
        this.jetStream = jetStream;
        this.subject = subject;
        this.keySubjects = keySubjects;
        this.connectionLabel = "the connection of " + subject;
        this.acks = acks;
        this.maxPending = maxPending;
        this.pending = new Semaphore(maxPending);
    }

    /** The connection this stream publishes on, shared or not: what tests count round trips on. */
    JnatsLink link() {
        return link;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        send(subject, message, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        send(keySubjects[key], message, sequence, intendedSendNanos);
    }

    private void send(String to, byte[] message, long sequence, long intendedSendNanos) throws Exception {
        failures.throwIfAny(connectionLabel);
        pending.acquire();
        CompletableFuture<PublishAck> future;
        try {
            future = jetStream.publishAsync(to, message.clone());
            link.published();
        } catch (IllegalStateException e) {
            pending.release();
            if (!NatsConnections.refusedWhileReconnecting(connection)) {
                throw e;
            }
            acks.failed(sequence, intendedSendNanos, e);
            return;
        } catch (RuntimeException | Error e) {
            pending.release();
            throw e;
        }
        future.whenComplete((ack, error) -> {
            pending.release();
            if (error != null) {
                acks.failed(sequence, intendedSendNanos, unwrap(error));
            } else {
                acks.acked(sequence, intendedSendNanos);
            }
        });
    }

    /**
     * Waits until the server has every message sent so far, with one round trip for all the streams
     * of a shared connection ({@link JnatsLink#flushPublished}); their PubAcks are each stream's own,
     * awaited at {@link #close}.
     */
    @Override
    public void flush() throws Exception {
        try {
            link.flushPublished(FLUSH_TIMEOUT);
        } catch (TimeoutException e) {
            throw new TimeoutException("NATS server did not answer a flush of " + subject + " within "
                    + FLUSH_TIMEOUT.toSeconds() + " s");
        }
        failures.throwIfAny(connectionLabel);
    }

    /** Waits (boundedly) for PubAcks still outstanding, so that none is cut off by the close. */
    @Override
    public void close() throws Exception {
        try {
            if (pending.tryAcquire(maxPending, CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                pending.release(maxPending);
            }
        } finally {
            release.close();
        }
        failures.throwIfAny(connectionLabel);
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
