package dev.msgbench.core.driver;

/**
 * One producer stream's connection to the system under test.
 */
public interface Publisher extends AutoCloseable {

    /**
     * Hands one message to the client without waiting for the broker. It may block when the
     * client's buffers are full: the core measures that wait as send delay.
     *
     * <p>The caller reuses {@code message} as soon as this returns: a client that keeps a
     * reference to the array after returning must be given a copy.
     *
     * @param sequence          pass back to {@link AckListener}, unchanged
     * @param intendedSendNanos pass back to {@link AckListener}, unchanged
     */
    void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception;

    /**
     * Hands one message with a record key to the client, as {@link #publish(byte[], long, long)}
     * does. Called instead of it only on a system whose {@link MessagingSystem#useKeys} took the
     * run's keys.
     *
     * @param key the message's key: an index into the {@link dev.msgbench.core.payload.RecordKeys}
     *            the system was given, which a driver maps to bytes it built once
     */
    default void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        publish(message, sequence, intendedSendNanos);
    }

    /**
     * Before the first message, when the stream's thread will wait while {@code maxOutstanding} of
     * its messages await acknowledgement (an unpaced run's limit): the limit, in messages. A
     * publisher that acknowledges messages only in groups (a Kafka transaction, at its commit)
     * keeps each group well below it, so that the stream sends on while a group awaits its
     * acknowledgement; one group holding the whole limit would stop the stream for each.
     */
    default void outstandingLimit(int maxOutstanding) {
    }

    /**
     * The engine's offer, before the first message, when the stream's thread will wait for
     * acknowledgements (an unpaced run's limit of outstanding messages) and call {@link
     * #makeProgress} while it does: a publisher that can read its replies on that thread, instead of
     * on a thread of its own, takes it and says so. On one core a reply thread costs a switch there
     * and back for every batch of replies; the native tools read theirs on their one thread.
     */
    default boolean takeOverReplies() {
        return false;
    }

    /**
     * Called by the stream's thread while it waits for acknowledgements, once {@link
     * #takeOverReplies} was taken: reads the replies that have arrived. It may wait for the next
     * one, but only briefly (the Redis direct publisher at most 10 ms), so that the engine still
     * looks at its clock and at a stop. True when it read any.
     */
    default boolean makeProgress() throws Exception {
        return false;
    }

    /**
     * Called by the engine, on the publishing thread, when no further message of this stream is
     * due now: it is about to wait for the next intended send time or for acknowledgements, or
     * the stream has stopped. A driver that holds written messages back to send several at once
     * must send them now, or they would wait with the engine and their latency would include the
     * gap to the next message.
     *
     * <p>While the stream is behind its schedule (or unpaced) this is rarely called between
     * messages, so a driver may batch them; at a rate the system keeps up with it is called
     * after nearly every message. It may come when a message is due after all (the engine
     * compares the next intended time with the last send time, not with a fresh clock read),
     * never later than a wait begins.
     */
    default void endOfBurst() throws Exception {
    }

    /** Pushes out anything the client still buffers; called once after the last publish. */
    default void flush() throws Exception {
    }

    @Override
    void close() throws Exception;
}
