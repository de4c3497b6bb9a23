package dev.msgbench.nats;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.nats.wire.WireConnection;

/**
 * A direct producer connection and its one buffer, holding the PUB lines of every stream that
 * publishes on it: stream {@code s} is the {@code s / connections}-th of them (streams {@code c},
 * {@code c + connections}, ...), each with its own line and then one per key. Used by one producer
 * thread; with request/reply, the jnats connection the streams' echoes come back on.
 *
 * @param index     the connection's number, {@link dev.msgbench.core.driver.RunPlan#producerConnectionOf}
 * @param failures  the connection's first failure, checked before each message
 * @param replies   where request/reply's echoes arrive, or null
 */
record DirectProducerLink(int index, WireConnection wire, FirstFailure failures, FrameBuffer frames,
                          int linesPerStream, int connections, JnatsLink replies) implements AutoCloseable {

    /** Where stream {@code streamId}'s own PUB line is in {@link #frames}. */
    int firstLineOf(int streamId) {
        return streamId / connections * linesPerStream;
    }

    @Override
    public void close() throws Exception {
        try {
            wire.close();
        } finally {
            if (replies != null) {
                replies.close();
            }
        }
    }
}
