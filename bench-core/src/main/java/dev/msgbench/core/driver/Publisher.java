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

    /** Pushes out anything the client still buffers; called once after the last publish. */
    default void flush() throws Exception {
    }

    @Override
    void close() throws Exception;
}
