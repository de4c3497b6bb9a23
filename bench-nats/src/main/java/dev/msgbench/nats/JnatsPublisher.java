package dev.msgbench.nats;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.nats.client.Connection;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * What a producer stream on a jnats connection does whatever it publishes (core NATS, {@link
 * CorePublisher}, or JetStream, {@link JsPublisher}): it holds its connection, shared or not, and
 * lets go of it at close; stops at the connection's first asynchronous error; reports a message
 * that jnats refused while reconnecting as a failed send; and flushes with the other streams of
 * its connection. What differs is how a message is handed to jnats and whether a reply is awaited.
 *
 * <p>IMPLEMENTATION NOTES: the shared steps of the per-message path are final methods, so that
 * sharing them adds no virtual call per message; a subclass's {@code publish} calls them.
 */
abstract class JnatsPublisher implements Publisher {

    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);

    protected final Connection connection;
    private final JnatsLink link;
    /** Lets go of the connection: closes it unless other streams still publish on it. */
    private final AutoCloseable release;
    private final FirstFailure failures;
    protected final String subject;
    /** With --keys, the subject of each key under the stream's: built once, indexed by key. */
    protected final String[] keySubjects;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    protected final AckListener acks;

    /**
     * @param link        the connection, shared or not, with its asynchronous errors
     * @param release     closed with this publisher: lets go of the connection
     * @param keySubjects the subject of each record key, or null without keys
     * @param acks        where each message's outcome is reported, a refused one's among them
     */
    JnatsPublisher(JnatsLink link, AutoCloseable release, String subject, String[] keySubjects, AckListener acks) {
        this.link = link;
        this.connection = link.connection;
        this.release = release;
        this.failures = link.failures;
        this.subject = subject;
        this.keySubjects = keySubjects;
        this.connectionLabel = "the connection of " + subject;
        this.acks = acks;
    }

    /** The connection this stream publishes on, shared or not: what tests count round trips on. */
    final JnatsLink link() {
        return link;
    }

    /** Before each message: an asynchronous error of the connection ends the stream. */
    protected final void throwIfFailed() throws Exception {
        failures.throwIfAny(connectionLabel);
    }

    /** After jnats has taken a message: counted for the connection's next flush. */
    protected final void published() {
        link.published();
    }

    /**
     * jnats refused a message with {@code refusal}: while it reconnects (its reconnect buffer full)
     * that message is a failed send and the run goes on; otherwise the connection is closed, and the
     * refusal ends the stream.
     */
    protected final void refused(IllegalStateException refusal, long sequence, long intendedSendNanos) {
        if (!NatsConnections.refusedWhileReconnecting(connection)) {
            throw refusal;
        }
        acks.failed(sequence, intendedSendNanos, refusal);
    }

    /**
     * Waits until the server has everything sent so far (a PING answered by a PONG), with one round
     * trip for all the streams of a shared connection ({@link JnatsLink#flushPublished}): a flush by
     * another stream of the connection after this one's last publish covers it without a round trip
     * of its own. Replies (JetStream's PubAcks) are each stream's own, awaited at {@link #close}.
     */
    @Override
    public final void flush() throws Exception {
        try {
            link.flushPublished(FLUSH_TIMEOUT);
        } catch (TimeoutException e) {
            throw new TimeoutException("NATS server did not answer a flush of " + subject + " within "
                    + FLUSH_TIMEOUT.toSeconds() + " s");
        }
        throwIfFailed();
    }

    /**
     * Lets go of the connection once {@link #awaitReplies} has returned (or thrown), then throws the
     * connection's first asynchronous error, if it had one.
     */
    @Override
    public final void close() throws Exception {
        try {
            awaitReplies();
        } finally {
            release.close();
        }
        throwIfFailed();
    }

    /** Called by {@link #close} first: waits for what the stream still awaits. Core NATS awaits nothing. */
    protected void awaitReplies() throws InterruptedException {
    }
}
