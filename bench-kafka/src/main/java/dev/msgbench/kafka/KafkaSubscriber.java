package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer with a KafkaConsumer of its own in its subscription's group. The partition is the
 * lane: Kafka orders messages only within one.
 */
final class KafkaSubscriber extends KafkaPoller implements Subscriber {

    private final MessageSink sink;

    KafkaSubscriber(int index, KafkaConsumer<byte[], ByteBuffer> consumer, String topic, MessageSink sink,
                    CommitMode commitMode, Duration pollTimeout, BooleanSupplier groupReady) {
        super("msgbench-kafka-consumer-" + index, consumer, List.of(topic), commitMode, pollTimeout, groupReady);
        this.sink = sink;
        start();
    }

    @Override
    void deliver(ConsumerRecords<byte[], ByteBuffer> records) {
        // the poll handed them all over at once; a partition's records are one lane
        long received = sink.receivedNow();
        for (TopicPartition partition : records.partitions()) {
            sink.onMessages(records.records(partition), ConsumerRecord::value, partition.partition(), received);
        }
    }

    @Override
    void onError(Throwable error) {
        sink.onError(error);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
