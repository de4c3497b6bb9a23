package dev.msgbench.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RecordKeys;

/**
 * Drives a prepared system as the engine does when producers and consumers share connections,
 * before the engine's flags exist: every consumer of the plan subscribes with a sink of its own,
 * every stream gets a publisher with acknowledgements of its own, and one thread per producer
 * connection publishes that connection's streams in turn. Then {@link #assertExact} checks that
 * each subscription of each topic got exactly its topic's messages and each stream exactly its
 * acknowledgements.
 */
public final class SharedConnectionsRun {

    private static final int RUN_KEY = 15;
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** What a test looks at while every publisher and subscriber is still open, after all arrived. */
    public interface WhileOpen {
        void inspect(List<Publisher> publishers, List<Subscriber> subscribers) throws Exception;
    }

    private final RunPlan plan;
    private final int messagesPerStream;
    private final boolean acknowledges;
    private final List<Receipts> consumers = new ArrayList<>();
    private final List<Acks> streams = new ArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final CountDownLatch received;
    private final CountDownLatch acked;

    private SharedConnectionsRun(RunPlan plan, int messagesPerStream, boolean acknowledges) {
        this.plan = plan;
        this.messagesPerStream = messagesPerStream;
        this.acknowledges = acknowledges;
        this.received = new CountDownLatch(plan.producers() * messagesPerStream * plan.subscriptionsPerTopic());
        this.acked = new CountDownLatch(acknowledges ? plan.producers() * messagesPerStream : 0);
    }

    /**
     * @param system       prepared with {@code plan}, and given {@code keys} unless they are none
     * @param acknowledges whether the system acknowledges each message (then every one must be)
     */
    public static SharedConnectionsRun run(MessagingSystem system, RunPlan plan, int messagesPerStream,
                                           RecordKeys keys, boolean acknowledges, WhileOpen whileOpen)
            throws Exception {
        return run(system, plan, messagesPerStream, keys, acknowledges, false, whileOpen);
    }

    /**
     * @param consumeAfterProduce subscribe only once every message was published and acknowledged
     *                            (--consume-after-produce), rather than before the first
     */
    public static SharedConnectionsRun run(MessagingSystem system, RunPlan plan, int messagesPerStream,
                                           RecordKeys keys, boolean acknowledges, boolean consumeAfterProduce,
                                           WhileOpen whileOpen) throws Exception {
        SharedConnectionsRun run = new SharedConnectionsRun(plan, messagesPerStream, acknowledges);
        List<Subscriber> subscribers = new ArrayList<>();
        List<Publisher> publishers = new ArrayList<>();
        try {
            if (!consumeAfterProduce) {
                run.subscribe(system, subscribers);
            }
            for (int s = 0; s < plan.producers(); s++) {
                Acks acks = run.new Acks();
                run.streams.add(acks);
                publishers.add(system.publisher(s, acks));
            }
            run.publishFromOneThreadPerConnection(publishers, keys);
            assertTrue(run.acked.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                    run.acked.getCount() + " acknowledgements missing; errors " + run.errors);
            if (consumeAfterProduce) {
                run.subscribe(system, subscribers);
            }
            assertTrue(run.received.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                    run.received.getCount() + " deliveries missing; errors " + run.errors);
            whileOpen.inspect(publishers, subscribers);
        } finally {
            for (Publisher publisher : publishers) {
                publisher.close();
            }
            for (Subscriber subscriber : subscribers) {
                subscriber.close();
            }
        }
        return run;
    }

    private void subscribe(MessagingSystem system, List<Subscriber> subscribers) throws Exception {
        for (int i = 0; i < plan.consumers(); i++) {
            Receipts receipts = new Receipts();
            consumers.add(receipts);
            subscribers.add(system.subscribe(i, receipts));
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.awaitReady(WAIT);
        }
    }

    private void publishFromOneThreadPerConnection(List<Publisher> publishers, RecordKeys keys) throws Exception {
        FirstFailure failures = new FirstFailure();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < plan.producerConnections(); c++) {
            List<Integer> ofConnection = new ArrayList<>();
            for (int s = 0; s < plan.producers(); s++) {
                if (plan.producerConnectionOf(s) == c) {
                    ofConnection.add(s);
                }
            }
            Thread thread = new Thread(() -> {
                try {
                    publish(ofConnection, publishers, keys);
                } catch (Exception | AssertionError e) {
                    failures.add(e);
                }
            }, "publisher-connection-" + c);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(WAIT.toMillis());
        }
        failures.throwIfAny("publishing");
    }

    private void publish(List<Integer> ofConnection, List<Publisher> publishers, RecordKeys keys) throws Exception {
        RecordKeys.Chooser chooser = keys.isNone() ? null : keys.chooser(1);
        byte[] message = new byte[plan.messageSizeBytes()];
        for (long sequence = 0; sequence < messagesPerStream; sequence++) {
            for (int s : ofConnection) {
                PayloadHeader.write(message, RUN_KEY, s, sequence, System.nanoTime());
                if (chooser == null) {
                    publishers.get(s).publish(message, sequence, sequence);
                } else {
                    publishers.get(s).publish(message, chooser.next(), sequence, sequence);
                }
            }
        }
        for (int s : ofConnection) {
            publishers.get(s).flush();
        }
    }

    /**
     * Every subscription of every topic got each message of the topic's streams once, its members
     * together; no consumer got a message of another topic; each stream's acknowledgements were its
     * own messages, each once; nothing failed.
     */
    public void assertExact() {
        assertEquals(List.of(), errors);
        for (int t = 0; t < plan.topics(); t++) {
            Set<Long> expected = new HashSet<>();
            for (int s = 0; s < plan.producers(); s++) {
                if (plan.topicOf(s) == t) {
                    for (long sequence = 0; sequence < messagesPerStream; sequence++) {
                        expected.add(id(s, sequence));
                    }
                }
            }
            for (int k = 0; k < plan.subscriptionsPerTopic(); k++) {
                Set<Long> got = new HashSet<>();
                for (int i = 0; i < plan.consumers(); i++) {
                    if (plan.topicOfConsumer(i) == t && plan.subscriptionOfConsumer(i) == k) {
                        got.addAll(consumers.get(i).ids);
                        assertEquals(0, consumers.get(i).duplicates.get(), "duplicates at consumer " + i);
                    }
                }
                Set<Long> missing = new HashSet<>(expected);
                missing.removeAll(got);
                Set<Long> foreign = new HashSet<>(got);
                foreign.removeAll(expected);
                assertEquals("0 missing, 0 of other topics", missing.size() + " missing, " + foreign.size()
                        + " of other topics", "topic " + t + ", subscription " + k);
            }
        }
        int delivered = consumers.stream().mapToInt(r -> r.ids.size()).sum();
        assertEquals(plan.producers() * messagesPerStream * plan.subscriptionsPerTopic(), delivered,
                "no consumer got a message of another subscription");
        for (int s = 0; s < plan.producers(); s++) {
            assertEquals(acknowledges ? messagesPerStream : 0, streams.get(s).sequences.size(), "acks of stream " + s);
            assertEquals(0, streams.get(s).duplicates.get(), "acks of stream " + s + " twice");
        }
    }

    /** The messages consumer {@code index} received, as {@code streamId << 32 | sequence}. */
    public Set<Long> receivedBy(int index) {
        return Set.copyOf(consumers.get(index).ids);
    }

    private static long id(int streamId, long sequence) {
        return (long) streamId << 32 | sequence;
    }

    /** One consumer's sink. */
    private final class Receipts implements MessageSink {

        final Set<Long> ids = ConcurrentHashMap.newKeySet();
        final AtomicLong duplicates = new AtomicLong();

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            onMessage(ByteBuffer.wrap(data, offset, length), lane);
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            if (!PayloadHeader.isOfRun(data, RUN_KEY)) {
                errors.add(new AssertionError("a message of another run"));
                return;
            }
            if (ids.add(id(PayloadHeader.streamId(data), PayloadHeader.sequence(data)))) {
                received.countDown();
            } else {
                duplicates.incrementAndGet();
            }
        }

        @Override
        public void onError(Throwable error) {
            errors.add(error);
        }
    }

    /** One stream's acknowledgements. */
    private final class Acks implements AckListener {

        final Set<Long> sequences = ConcurrentHashMap.newKeySet();
        final AtomicLong duplicates = new AtomicLong();

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            if (sequences.add(sequence)) {
                acked.countDown();
            } else {
                duplicates.incrementAndGet();
            }
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            errors.add(error);
        }
    }
}
