package dev.msgbench.nats;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.nats.client.Connection;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream, on a connection of its own or on one it shares with the other streams
 * of its producer thread (which only that thread uses). Core NATS has no acknowledgement: publish
 * hands the message to jnats' outgoing queue, whose writer thread sends it.
 *
 * <p>IMPLEMENTATION NOTES: jnats keeps a reference to the array until its writer thread has
 * sent it, and the engine reuses the array as soon as publish returns, so each message is copied.
 *
 * <p>While jnats reconnects, what is published waits in its reconnect buffer and is sent after;
 * once the buffer is full a publish is refused, and that message counts as a failed send.
 */
final class CorePublisher implements Publisher {

    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);

    private final Connection connection;
    private final JnatsLink link;
    /** Lets go of the connection: closes it unless other streams still publish on it. */
    private final AutoCloseable release;
    private final FirstFailure failures;
    private final String subject;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    private final String replyTo;
    private final AckListener acks;
    /** With --keys, the subject of each key under the stream's: built once, indexed by key. */
    private final String[] keySubjects;

    /**
     * @param link        the connection, shared or not, with its asynchronous errors
     * @param release     closed with this publisher: lets go of the connection
     * @param replyTo     where the responder echoes to (request/reply), or null
     * @param acks        where a message jnats refused while reconnecting is reported failed
     * @param keySubjects the subject of each record key, or null without keys
     */
    CorePublisher(JnatsLink link, AutoCloseable release, String subject, String replyTo, AckListener acks,
                  String[] keySubjects) {
        this.link = link;
        this.connection = link.connection;
        this.keySubjects = keySubjects;
        this.acks = acks;
        this.release = release;
        this.failures = link.failures;
        this.subject = subject;
        this.connectionLabel = "the connection of " + subject;
        this.replyTo = replyTo;
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
        try {
            connection.publish(to, replyTo, message.clone());
            link.published();
        } catch (IllegalStateException e) {
            if (!NatsConnections.refusedWhileReconnecting(connection)) {
                throw e;
            }
            acks.failed(sequence, intendedSendNanos, e);
        }
    }

    /**
     * Waits until the server has everything sent so far (a PING answered by a PONG), on a shared
     * connection the other streams' messages too: a flush by another stream of the connection
     * after this one's last publish covers it without a round trip of its own.
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

    @Override
    public void close() throws Exception {
        release.close();
        failures.throwIfAny(connectionLabel);
    }
}
