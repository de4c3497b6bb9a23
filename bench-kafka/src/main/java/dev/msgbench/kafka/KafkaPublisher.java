package dev.msgbench.kafka;

import java.time.Duration;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream on a KafkaProducer of its own, or on one it shares with the other streams of
 * its connection (--producer-threads), each stream still with its own topic and acknowledgements;
 * flushing a shared producer flushes every stream on it. Without --keys no key: Kafka's default partitioner
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
    /** Closes the producer, or lets go of a shared one, which closes with its last stream. */
    private final AutoCloseable release;

    /** A stream with a producer of its own, closed with it. */
    KafkaPublisher(KafkaProducer<byte[], byte[]> producer, String topic, AckListener acks, boolean acknowledges,
                   boolean flushEachSend, byte[][] keys) {
        this(producer, topic, acks, acknowledges, flushEachSend, keys, () -> closeProducer(producer));
    }

    /** @param release called once at close: lets go of the producer */
    KafkaPublisher(KafkaProducer<byte[], byte[]> producer, String topic, AckListener acks, boolean acknowledges,
                   boolean flushEachSend, byte[][] keys, AutoCloseable release) {
        this.release = release;
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

    /** Closes a producer, waiting at most the close timeout for what it still sends. */
    static void closeProducer(KafkaProducer<byte[], byte[]> producer) {
        producer.close(CLOSE_TIMEOUT);
    }

    @Override
    public void close() throws Exception {
        release.close();
    }
}
