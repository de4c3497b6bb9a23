package dev.msgbench.pulsar;

import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.TypedMessageBuilder;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream on a Producer of its own; the broker's receipt (the bookies' ack quorum has
 * the entry) completes sendAsync's future, which reports the acknowledgement.
 *
 * <p>IMPLEMENTATION NOTES: the engine reuses the message array once publish returns, and a
 * producer without batching keeps the array it was given (wrapped, not copied) until the message
 * is written to the socket on the client's I/O thread: so it is given a copy.
 */
final class PulsarPublisher implements Publisher {

    private final Producer<byte[]> producer;
    private final AckListener acks;
    /** Each key's bytes by index; null without keys. */
    private final byte[][] keys;

    PulsarPublisher(Producer<byte[]> producer, AckListener acks, byte[][] keys) {
        this.producer = producer;
        this.acks = acks;
        this.keys = keys;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) {
        send(producer.newMessage().value(message.clone()), sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) {
        send(producer.newMessage().keyBytes(keys[key]).value(message.clone()), sequence, intendedSendNanos);
    }

    private void send(TypedMessageBuilder<byte[]> message, long sequence, long intendedSendNanos) {
        message.sendAsync().whenComplete((id, error) -> {
            if (error != null) {
                acks.failed(sequence, intendedSendNanos, error);
            } else {
                acks.acked(sequence, intendedSendNanos);
            }
        });
    }

    @Override
    public void flush() throws Exception {
        producer.flush();
    }

    @Override
    public void close() throws Exception {
        producer.close();
    }
}
