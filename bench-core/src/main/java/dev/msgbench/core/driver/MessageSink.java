package dev.msgbench.core.driver;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;

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

    /**
     * The messages a client handed over together on one lane (the records of one partition in one
     * Kafka poll), all received at {@code receivedNanos} from {@link #receivedNow()}; {@code valueOf}
     * gives each one's bytes. The same as an {@link #onMessage(ByteBuffer, int, long)} for each, in
     * order, which is what it does unless the sink can share work among them.
     */
    default <T> void onMessages(List<T> messages, Function<? super T, ByteBuffer> valueOf, int lane,
                                long receivedNanos) {
        for (T message : messages) {
            onMessage(valueOf.apply(message), lane, receivedNanos);
        }
    }

    /** An asynchronous failure of a subscriber; the first one fails the run. */
    void onError(Throwable error);
}
