package dev.msgbench.rabbit;

import com.rabbitmq.stream.Producer;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import java.io.IOException;

/**
 * One producer stream: a stream-client producer of its own, on a connection of its own, appending
 * to its topic's stream. Every publish is confirmed (the stream protocol has no other kind); the
 * client blocks a publish while its limit of unconfirmed messages is reached.
 */
final class RabbitStreamPublisher implements Publisher {

    private final Producer producer;
    private final AckListener acks;

    RabbitStreamPublisher(Producer producer, AckListener acks) {
        this.producer = producer;
        this.acks = acks;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) {
        // the client keeps the array until it is written, and the caller reuses it at once
        producer.send(producer.messageBuilder().addData(message.clone()).build(), status -> {
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
