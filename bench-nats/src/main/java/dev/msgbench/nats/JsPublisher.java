package dev.msgbench.nats;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;

import dev.msgbench.core.driver.AckListener;

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
final class JsPublisher extends JnatsPublisher {

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final JetStream jetStream;
    private final int maxPending;
    private final Semaphore pending;

    /**
     * @param release     closed with this publisher: lets go of the connection, shared or not
     * @param keySubjects the subject of each record key, or null without keys
     */
    JsPublisher(JnatsLink link, AutoCloseable release, JetStream jetStream, String subject, String[] keySubjects,
                AckListener acks, int maxPending) {
        super(link, release, subject, keySubjects, acks);
        this.jetStream = jetStream;
        this.maxPending = maxPending;
        this.pending = new Semaphore(maxPending);
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
        throwIfFailed();
        pending.acquire();
        CompletableFuture<PublishAck> future;
        try {
            future = jetStream.publishAsync(to, message.clone());
            published();
        } catch (IllegalStateException e) {
            pending.release();
            refused(e, sequence, intendedSendNanos);
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

    /** Waits (boundedly) for PubAcks still outstanding, so that none is cut off by the close. */
    @Override
    protected void awaitReplies() throws InterruptedException {
        if (pending.tryAcquire(maxPending, CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            pending.release(maxPending);
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
