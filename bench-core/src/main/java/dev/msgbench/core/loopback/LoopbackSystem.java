package dev.msgbench.core.loopback;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;

/**
 * No broker at all: each consumer is a thread of this JVM taking messages from a bounded queue
 * that producers put copies into, as a client library's I/O thread would. What a run measures is
 * then the load generator itself on this machine and JVM (its send delay, its hand-off between
 * threads, its own stalls): the floor under every broker's figures, and the check that the tool
 * keeps its schedule before a broker is blamed.
 *
 * <p>Producer stream {@code s} goes to one consumer of each subscription of its topic, the one
 * {@link RunPlan#reads} names: with one topic and one subscription, consumer {@code s mod consumers}.
 * Each subscription gets a copy. A full queue blocks the producer, which the engine measures as send
 * delay; nothing is ever dropped.
 */
public final class LoopbackSystem implements MessagingSystem {

    /** Messages a consumer's queue holds before producers wait: a client's buffer, roughly. */
    public static final int QUEUE_CAPACITY = 65_536;
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final List<BlockingQueue<byte[]>> queues = new ArrayList<>();
    private RunPlan plan;

    @Override
    public void prepare(RunPlan runPlan) {
        this.plan = runPlan;
        for (int c = 0; c < runPlan.consumers(); c++) {
            queues.add(new ArrayBlockingQueue<>(QUEUE_CAPACITY));
        }
    }

    /** Takes keys so that a run with them can be checked without a broker: a key routes nothing here. */
    @Override
    public String useKeys(RecordKeys keys) {
        return null;
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) {
        return new LoopbackConsumer(index, queues.get(index), sink, STOP_WAIT);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) {
        List<BlockingQueue<byte[]>> readers = new ArrayList<>();
        for (int c = 0; c < queues.size(); c++) {
            if (plan.reads(c, streamId)) {
                readers.add(queues.get(c));
            }
        }
        return new Publisher() {
            @Override
            public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
                for (BlockingQueue<byte[]> queue : readers) {
                    // a copy, as a client keeps one: the engine reuses the array once this returns
                    queue.put(message.clone());
                }
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", "none (no broker: messages go from thread to thread in this JVM)");
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("queueCapacity", QUEUE_CAPACITY);
        settings.put("consumers", plan == null ? null : plan.consumers());
        if (plan != null && plan.topics() * plan.subscriptionsPerTopic() > 1) {
            settings.put("topics", plan.topics());
            settings.put("subscriptionsPerTopic", plan.subscriptionsPerTopic());
            settings.put("routing", "producer stream s to topic s mod topics, and a copy to one consumer of each of its "
                    + "subscriptions: member (s / topics) mod consumers-per-subscription");
        } else {
            settings.put("routing", "producer stream s to consumer s mod consumers");
        }
        return new SystemInfo("loopback", "msgbench loopback", "none (in-process)", durability, settings, false);
    }

    @Override
    public void close() {
        queues.clear();
    }
}
