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
 *
 * <p>With consumers sharing connections (the plan's {@link RunPlan#consumerConnections}), each
 * connection is one thread with one queue, and hands each message to its consumer's sink
 * ({@link LoopbackConnection}). Producers have no connection here: a publisher puts into the queues
 * from the thread that sends its stream.
 */
public final class LoopbackSystem implements MessagingSystem {

    /** Messages a consumer's queue holds before producers wait: a client's buffer, roughly. */
    public static final int QUEUE_CAPACITY = 65_536;
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    /** Where a message for one consumer goes: its own queue, or its shared connection's. */
    private interface Inbox {
        void put(byte[] message) throws InterruptedException;
    }

    private final List<BlockingQueue<byte[]>> queues = new ArrayList<>();
    private final List<LoopbackConnection> connections = new ArrayList<>();
    private RunPlan plan;

    @Override
    public void prepare(RunPlan runPlan) {
        this.plan = runPlan;
        if (runPlan.consumersShareConnections()) {
            int count = runPlan.consumerConnections();
            for (int c = 0; c < count; c++) {
                // consumer i on connection i mod count: consumers - c of them, rounded up, on connection c
                connections.add(new LoopbackConnection(c, (runPlan.consumers() - c + count - 1) / count, QUEUE_CAPACITY,
                        STOP_WAIT));
            }
            return;
        }
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
        if (plan.consumersShareConnections()) {
            return connections.get(plan.consumerConnectionOf(index)).subscribe(index / plan.consumerConnections(), sink);
        }
        return new LoopbackConsumer(index, queues.get(index), sink, STOP_WAIT);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) {
        List<Inbox> readers = new ArrayList<>();
        for (int c : readersOf(streamId)) {
            if (plan.consumersShareConnections()) {
                LoopbackConnection connection = connections.get(plan.consumerConnectionOf(c));
                int slot = c / plan.consumerConnections();
                readers.add(message -> connection.put(slot, message));
            } else {
                readers.add(queues.get(c)::put);
            }
        }
        Inbox[] inboxes = readers.toArray(new Inbox[0]);
        return new Publisher() {
            @Override
            public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
                for (Inbox inbox : inboxes) {
                    // a copy, as a client keeps one: the engine reuses the array once this returns
                    inbox.put(message.clone());
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * The consumers that read stream {@code streamId}, one member of each subscription of its topic, as
     * {@link RunPlan#reads} deals them: computed, since scanning every consumer for every stream would
     * take hours with millions of each.
     */
    private List<Integer> readersOf(int streamId) {
        List<Integer> readers = new ArrayList<>();
        if (plan.consumers() == 0) {
            return readers;
        }
        int perSubscription = plan.consumersPerSubscription();
        int topic = plan.topicOf(streamId);
        int member = streamId / plan.topics() % perSubscription;
        for (int k = 0; k < plan.subscriptionsPerTopic(); k++) {
            readers.add((topic * plan.subscriptionsPerTopic() + k) * perSubscription + member);
        }
        return readers;
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", "none (no broker: messages go from thread to thread in this JVM)");
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("queueCapacity", QUEUE_CAPACITY);
        settings.put("consumers", plan == null ? null : plan.consumers());
        if (plan != null && plan.consumersShareConnections()) {
            settings.put("consumerConnections", plan.consumerConnections());
        }
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
        connections.clear();
    }
}
