package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One KafkaConsumer in a consumer group, polled by a thread of its own (KafkaConsumer is not
 * thread-safe), committing as the run's {@link CommitMode} says. What it does with the records
 * of a poll is the subclass's: one consumer's sink, or the sinks of the logical consumers that
 * share it, by topic.
 */
abstract class KafkaPoller implements Runnable {

    private static final long READY_POLL_MILLIS = 20;

    private final KafkaConsumer<byte[], ByteBuffer> consumer;
    private final List<String> topics;
    private final CommitMode commitMode;
    private final Duration pollTimeout;
    private final BooleanSupplier groupReady;
    private final Thread thread;
    private volatile int assignedPartitions;
    /** The group generation of the last assignment this consumer received; -1 before the first. */
    private volatile int generation = -1;
    private volatile boolean running = true;

    KafkaPoller(String threadName, KafkaConsumer<byte[], ByteBuffer> consumer, List<String> topics, CommitMode commitMode,
                Duration pollTimeout, BooleanSupplier groupReady) {
        this.consumer = consumer;
        this.topics = List.copyOf(topics);
        this.commitMode = commitMode;
        this.pollTimeout = pollTimeout;
        this.groupReady = groupReady;
        this.thread = new Thread(this, threadName);
        thread.setDaemon(true);
    }

    /** Hands the records of one poll on; called on the polling thread. */
    abstract void deliver(ConsumerRecords<byte[], ByteBuffer> records);

    /** An asynchronous failure of the consumer. */
    abstract void onError(Throwable error);

    /** Starts polling; once, after the subclass is ready to {@link #deliver}. */
    final void start() {
        thread.start();
    }

    int assignedPartitions() {
        return assignedPartitions;
    }

    int generation() {
        return generation;
    }

    @Override
    public final void run() {
        try {
            consumer.subscribe(topics, new ConsumerRebalanceListener() {
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
                ConsumerRecords<byte[], ByteBuffer> records = consumer.poll(pollTimeout);
                deliver(records);
                if (!records.isEmpty()) {
                    commit();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                onError(e);
            }
        } catch (Exception e) {
            onError(e);
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
                        onError(error);
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

    /** Returns once the group holds every partition of its topics, in one generation. */
    public void awaitReady(Duration timeout) throws Exception {
        awaitGroup(groupReady, thread, "Kafka consumer", topics, timeout, READY_POLL_MILLIS);
    }

    /**
     * Returns once {@code ready} says the group of {@code consumer} (a consumer group's, a share
     * group's) holds every partition of {@code topics}, asking every {@code everyMillis}.
     *
     * @param polling the consumer's polling thread: if it ended, the consumer failed
     */
    static void awaitGroup(BooleanSupplier ready, Thread polling, String consumer, List<String> topics, Duration timeout,
                           long everyMillis) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (!polling.isAlive()) {
                throw new IllegalStateException(consumer + " stopped before it was assigned partitions");
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(consumer + "s were not assigned all partitions of "
                        + String.join(", ", topics) + " within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(everyMillis);
        }
    }

    /** Stops polling; the polling thread closes the consumer. */
    void stop() throws InterruptedException {
        running = false;
        if (thread.isAlive()) {
            consumer.wakeup(); // ends a poll in progress
        }
        thread.join(10_000);
    }
}
