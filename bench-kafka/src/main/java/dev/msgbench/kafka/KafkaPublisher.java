package dev.msgbench.kafka;

import java.time.Duration;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One KafkaProducer per producer stream. Without --keys no key: Kafka's default partitioner
 * spreads the stream over the topic's partitions, as an application without keys would (sticky:
 * a batch at a time). With keys each record carries its key and goes to the partition of the
 * key's hash, so a stream's batches split over partitions as keyed applications' do.
 *
 * <p>IMPLEMENTATION NOTES: the engine reuses the message array after publish returns. That is
 * safe here because KafkaProducer.send serialises the value (ByteArraySerializer returns the
 * same array) and copies it into the batch buffer before returning.
 */
final class KafkaPublisher implements Publisher {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final AckListener acks;
    private final boolean acknowledges;
    private final boolean flushEachSend;
    /** Each key's bytes by index; null without keys. */
    private final byte[][] keys;

    KafkaPublisher(KafkaProducer<byte[], byte[]> producer, String topic, AckListener acks, boolean acknowledges,
                   boolean flushEachSend, byte[][] keys) {
        this.keys = keys;
        this.producer = producer;
        this.topic = topic;
        this.acks = acks;
        this.acknowledges = acknowledges;
        this.flushEachSend = flushEachSend;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) {
        send(new ProducerRecord<>(topic, message), sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) {
        send(new ProducerRecord<>(topic, keys[key], message), sequence, intendedSendNanos);
    }

    private void send(ProducerRecord<byte[], byte[]> record, long sequence, long intendedSendNanos) {
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                acks.failed(sequence, intendedSendNanos, error);
            } else if (acknowledges) {
                acks.acked(sequence, intendedSendNanos);
            }
        });
        if (flushEachSend) {
            producer.flush();
        }
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }
}
