package dev.msgbench.nats;

import dev.msgbench.core.driver.AckListener;

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
final class CorePublisher extends JnatsPublisher {

    private final String replyTo;

    /**
     * @param link        the connection, shared or not, with its asynchronous errors
     * @param release     closed with this publisher: lets go of the connection
     * @param replyTo     where the responder echoes to (request/reply), or null
     * @param acks        where a message jnats refused while reconnecting is reported failed
     * @param keySubjects the subject of each record key, or null without keys
     */
    CorePublisher(JnatsLink link, AutoCloseable release, String subject, String replyTo, AckListener acks,
                  String[] keySubjects) {
        super(link, release, subject, keySubjects, acks);
        this.replyTo = replyTo;
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
        try {
            connection.publish(to, replyTo, message.clone());
            published();
        } catch (IllegalStateException e) {
            refused(e, sequence, intendedSendNanos);
        }
    }
}
