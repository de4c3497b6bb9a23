package dev.msgbench.core.driver;

import java.nio.ByteBuffer;

/**
 * Where a driver hands every message it receives: the one place latency is measured. The
 * driver passes the bytes as they arrived; the core stamps the receive time, reads the header
 * and records. Safe to call from any number of threads.
 */
public interface MessageSink {

    /**
     * @param lane the unit within which the system promises order (Kafka: the partition); 0
     *             where the system orders a whole subscription
     */
    void onMessage(byte[] data, int offset, int length, int lane);

    /** As {@link #onMessage(byte[], int, int, int)}, reading from the buffer's position. */
    void onMessage(ByteBuffer data, int lane);

    /**
     * The receive time of messages a client hands over together (the records of one Kafka poll),
     * read once on the core's clock before the first of them is passed to {@link
     * #onMessage(ByteBuffer, int, long)}. They all reached the application at that moment; a clock
     * read per message would add the load generator's own time on the ones before.
     */
    default long receivedNow() {
        return 0;
    }

    /**
     * As {@link #onMessage(ByteBuffer, int)}, received at {@code receivedNanos} from {@link
     * #receivedNow()}. A sink that does not measure ignores the time.
     */
    default void onMessage(ByteBuffer data, int lane, long receivedNanos) {
        onMessage(data, lane);
    }

    /** An asynchronous failure of a subscriber; the first one fails the run. */
    void onError(Throwable error);
}
