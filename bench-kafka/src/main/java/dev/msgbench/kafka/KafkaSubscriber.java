package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One KafkaConsumer in the run's group, polled by a thread of its own (KafkaConsumer is not
 * thread-safe). The partition is the lane: Kafka orders messages only within one.
 */
final class KafkaSubscriber implements Subscriber, Runnable {

    private static final long READY_POLL_MILLIS = 20;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final MessageSink sink;
    private final CommitMode commitMode;
    private final Duration pollTimeout;
    private final BooleanSupplier groupReady;
    private final Thread thread;
    private volatile int assignedPartitions;
    /** The group generation of the last assignment this consumer received; -1 before the first. */
    private volatile int generation = -1;
    private volatile boolean running = true;

    KafkaSubscriber(int index, KafkaConsumer<byte[], byte[]> consumer, String topic, MessageSink sink,
                    CommitMode commitMode, Duration pollTimeout, BooleanSupplier groupReady) {
        this.consumer = consumer;
        this.topic = topic;
        this.sink = sink;
        this.commitMode = commitMode;
        this.pollTimeout = pollTimeout;
        this.groupReady = groupReady;
        this.thread = new Thread(this, "msgbench-kafka-consumer-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    int assignedPartitions() {
        return assignedPartitions;
    }

    int generation() {
        return generation;
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    assignedPartitions = 0;
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    assignedPartitions = consumer.assignment().size();
                    generation = consumer.groupMetadata().generationId();
                }
            });
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(pollTimeout);
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    byte[] value = record.value();
                    sink.onMessage(value, 0, value.length, record.partition());
                }
                if (!records.isEmpty()) {
                    commit();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                sink.onError(e);
            }
        } catch (Exception e) {
            sink.onError(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void commit() {
        switch (commitMode) {
            case AUTO:
                break;
            case ASYNC:
                consumer.commitAsync((offsets, error) -> {
                    if (error != null) {
                        sink.onError(error);
                    }
                });
                break;
            case SYNC:
                consumer.commitSync();
                break;
            default:
                throw new AssertionError(commitMode);
        }
    }

    @Override
    public void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!groupReady.getAsBoolean()) {
            if (!thread.isAlive()) {
                throw new IllegalStateException("Kafka consumer stopped before it was assigned partitions");
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("Kafka consumers were not assigned all partitions of " + topic
                        + " within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(READY_POLL_MILLIS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        if (thread.isAlive()) {
            consumer.wakeup(); // ends a poll in progress; the polling thread closes the consumer
        }
        thread.join(10_000);
    }
}
