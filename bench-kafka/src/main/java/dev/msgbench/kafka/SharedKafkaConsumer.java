package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One KafkaConsumer shared by the consumers of one consumer connection (--consumer-connections):
 * they have the same subscription number and member number, each on a topic of its own, so it
 * joins that subscription's group, subscribes to all their topics and hands each record to the
 * sink of its topic's consumer. It polls only once every one of them has subscribed, so that no
 * record arrives before its sink (consuming after producing reads what is stored at once).
 */
final class SharedKafkaConsumer extends KafkaPoller implements AutoCloseable {

    private final int connection;
    private final int expected;
    /** The sink of each topic's consumer, while it is open. */
    private final Map<String, MessageSink> sinks = new ConcurrentHashMap<>();
    /** Every consumer's sink, to hear of a failure of the one KafkaConsumer they all read through. */
    private final List<MessageSink> everySink = new CopyOnWriteArrayList<>();

    /** @param topics the topics of the connection's consumers, one each */
    SharedKafkaConsumer(int connection, KafkaConsumer<byte[], ByteBuffer> consumer, List<String> topics,
                        CommitMode commitMode, Duration pollTimeout, BooleanSupplier groupReady) {
        super("msgbench-kafka-consumer-connection-" + connection, consumer, topics, commitMode, pollTimeout,
                groupReady);
        this.connection = connection;
        this.expected = topics.size();
    }

    /**
     * The consumer of {@code topic} on this connection; the last of them starts the polling.
     *
     * @param lease let go of when the consumer closes
     */
    synchronized Subscriber add(String topic, MessageSink sink, AutoCloseable lease) {
        if (sinks.putIfAbsent(topic, sink) != null) {
            throw new IllegalStateException("consumer connection " + connection + " has a consumer of " + topic
                    + " already");
        }
        everySink.add(sink);
        if (everySink.size() == expected) {
            start();
        }
        return new Member(topic, lease);
    }

    @Override
    void deliver(ConsumerRecords<byte[], ByteBuffer> records) {
        // the poll handed them all over at once: one receive time, read by the first sink (every
        // sink of a run reads the same clock)
        boolean stamped = false;
        long received = 0;
        for (TopicPartition partition : records.partitions()) {
            MessageSink sink = sinks.get(partition.topic());
            if (sink == null) {
                continue; // its consumer closed, as a consumer of its own would have
            }
            if (!stamped) {
                received = sink.receivedNow();
                stamped = true;
            }
            sink.onMessages(records.records(partition), ConsumerRecord::value, partition.partition(), received);
        }
    }

    @Override
    void onError(Throwable error) {
        for (MessageSink sink : everySink) {
            sink.onError(error);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** One logical consumer: its topic's records, its readiness, its close. */
    private final class Member implements Subscriber {

        private final String topic;
        private final AutoCloseable lease;

        Member(String topic, AutoCloseable lease) {
            this.topic = topic;
            this.lease = lease;
        }

        @Override
        public void awaitReady(Duration timeout) throws Exception {
            if (everySink.size() < expected) {
                throw new IllegalStateException("Kafka consumer connection " + connection + " polls once its "
                        + expected + " consumers have subscribed; " + everySink.size() + " did");
            }
            SharedKafkaConsumer.this.awaitReady(timeout);
        }

        @Override
        public void close() throws Exception {
            sinks.remove(topic);
            lease.close();
        }
    }
}
