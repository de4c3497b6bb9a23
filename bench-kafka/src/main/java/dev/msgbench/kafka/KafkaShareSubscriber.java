package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer with a KafkaShareConsumer of its own in its subscription's share group (KIP-932),
 * polled by a thread of its own (the share consumer is not thread-safe either). Every record goes
 * to the sink first and is then acknowledged explicitly, ACCEPT, as a queue's consumer does once it
 * has processed a message; every Nth record seen for the first time is RELEASEd instead, given
 * back after it was read, so that the broker delivers it again and the run counts a redelivery.
 * The acknowledgements go to the broker with the next poll.
 */
final class KafkaShareSubscriber implements Subscriber, Runnable {

    private static final long READY_POLL_MILLIS = 100;

    private final KafkaShareConsumer<byte[], ByteBuffer> consumer;
    private final String topic;
    private final MessageSink sink;
    private final Duration pollTimeout;
    private final int releaseEvery;
    private final BooleanSupplier groupReady;
    private final ShareCounts counts;
    private final Thread thread;
    /** First deliveries seen, to pick every Nth for release. */
    private long firstDeliveries;
    private volatile boolean running = true;

    /**
     * @param groupReady whether the share group has every consumer of the subscription as a member and
     *                   every partition assigned, asked of the broker
     * @param counts     where the subscription's redeliveries, as Kafka counts them, are added up
     */
    KafkaShareSubscriber(int index, KafkaShareConsumer<byte[], ByteBuffer> consumer, String topic, MessageSink sink,
                         Duration pollTimeout, int releaseEvery, BooleanSupplier groupReady, ShareCounts counts) {
        this.consumer = consumer;
        this.topic = topic;
        this.sink = sink;
        this.pollTimeout = pollTimeout;
        this.releaseEvery = releaseEvery;
        this.groupReady = groupReady;
        this.counts = counts;
        this.thread = new Thread(this, "msgbench-kafka-share-consumer-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topic));
            while (running) {
                ConsumerRecords<byte[], ByteBuffer> records = consumer.poll(pollTimeout);
                deliverAndAcknowledge(records);
            }
        } catch (WakeupException e) {
            if (running) {
                sink.onError(e);
            }
        } catch (Exception e) {
            sink.onError(e);
        } finally {
            // sends the acknowledgements of the last poll; a record neither accepted nor released goes back to the broker
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void deliverAndAcknowledge(ConsumerRecords<byte[], ByteBuffer> records) {
        if (records.isEmpty()) {
            return;
        }
        // the poll handed them all over at once; a partition's records are one lane, though not in a promised order
        long received = sink.receivedNow();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], ByteBuffer>> batch = records.records(partition);
            // read before the sink: it moves the value's position
            sink.onMessages(batch, ConsumerRecord::value, partition.partition(), received);
            for (ConsumerRecord<byte[], ByteBuffer> record : batch) {
                consumer.acknowledge(record, acknowledgement(record));
            }
        }
    }

    private AcknowledgeType acknowledgement(ConsumerRecord<byte[], ByteBuffer> record) {
        int deliveryCount = record.deliveryCount().map(Short::intValue).orElse(1);
        if (deliveryCount > 1) {
            counts.redelivered.incrementAndGet();
            return AcknowledgeType.ACCEPT;
        }
        if (releaseEvery > 0 && ++firstDeliveries % releaseEvery == 0) {
            counts.released.incrementAndGet();
            return AcknowledgeType.RELEASE;
        }
        return AcknowledgeType.ACCEPT;
    }

    /** Returns once the share group holds every consumer of the subscription and every partition is assigned. */
    @Override
    public void awaitReady(Duration timeout) throws Exception {
        // each check is a request to the broker: not as often as a consumer group's, which reads the consumer's own state
        KafkaPoller.awaitGroup(groupReady, thread, "Kafka share consumer", List.of(topic), timeout, READY_POLL_MILLIS);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        if (thread.isAlive()) {
            consumer.wakeup(); // ends a poll in progress
        }
        thread.join(10_000);
    }

    /** What the share consumers of a run counted, by Kafka's own delivery count: the witness beside the core's duplicates. */
    static final class ShareCounts {
        /** Records received with a delivery count above 1: delivered before, to this consumer or another. */
        final AtomicLong redelivered = new AtomicLong();
        /** Records given back (RELEASE) on purpose, each to be delivered again. */
        final AtomicLong released = new AtomicLong();
    }
}
