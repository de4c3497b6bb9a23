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

    /** An asynchronous failure of a subscriber; the first one fails the run. */
    void onError(Throwable error);
}
