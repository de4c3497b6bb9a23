package dev.msgbench.rabbit;

import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.Producer;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import java.io.IOException;

/**
 * One producer stream: a stream-client producer of its own, on a connection of its own, appending
 * to its topic's stream, or routing to a partition of its topic's super stream. Every publish is
 * confirmed (the stream protocol has no other kind); the client blocks a publish while its limit of
 * unconfirmed messages is reached.
 *
 * <p>To a super stream, each message carries its routing key as its message-id property, as a
 * Kafka record carries its key: the key (--keys), else the sequence number, which spreads a
 * producer's messages evenly over the partitions. {@link #routingKey} reads it back for the
 * producer's hash routing (stream-client's default: murmur3 modulo the partition count).
 */
final class RabbitStreamPublisher implements Publisher {

    private final Producer producer;
    private final AckListener acks;
    /** The run's keys by index, null without --keys. */
    private final String[] routingKeys;
    private final boolean routed;

    /**
     * @param routed      whether the producer routes to a super stream's partitions
     * @param routingKeys the run's keys by index (--keys), or null to route by sequence number
     */
    RabbitStreamPublisher(Producer producer, AckListener acks, boolean routed, String[] routingKeys) {
        this.producer = producer;
        this.acks = acks;
        this.routed = routed;
        this.routingKeys = routingKeys;
    }

    /** What a super stream's producer hashes to choose a partition. */
    static String routingKey(Message message) {
        return message.getProperties().getMessageIdAsString();
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) {
        send(message, routed ? Long.toString(sequence) : null, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) {
        send(message, routingKeys[key], sequence, intendedSendNanos);
    }

    private void send(byte[] message, String routingKey, long sequence, long intendedSendNanos) {
        // the client keeps the array until it is written, and the caller reuses it at once
        var builder = producer.messageBuilder().addData(message.clone());
        if (routingKey != null) {
            builder.properties().messageId(routingKey);
        }
        producer.send(builder.build(), status -> {
            if (status.isConfirmed()) {
                acks.acked(sequence, intendedSendNanos);
            } else {
                acks.failed(sequence, intendedSendNanos, new IOException("RabbitMQ Streams did not confirm a "
                        + "message (stream-client code " + status.getCode() + ")"));
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
