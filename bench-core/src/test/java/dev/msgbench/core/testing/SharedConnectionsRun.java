package dev.msgbench.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
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
 * connection publishes that connection's streams in turn, ending their bursts as the engine's
 * shared producer thread does; the publishers are flushed once those threads are done, as the
 * engine flushes them. Then {@link #assertExact} checks that each subscription of each topic got
 * exactly its topic's messages and each stream exactly its acknowledgements.
 *
 * <p>Every system's tests drive it (each module gets this class through bench-core's test-jar);
 * what a system checks at its server (its connections, their names and subscriptions) goes in
 * the {@link WhileOpen} hook and after the run.
 */
public final class SharedConnectionsRun {

    private static final int RUN_KEY = 15;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Rounds of every stream of a connection between two ends of a burst, as if the thread then waited. */
    private static final int ROUNDS_PER_BURST = 10;

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

    /** Prepares {@code system} as the engine does: keys first, and only when there are some. */
    public static void prepare(MessagingSystem system, RunPlan plan, RecordKeys keys) throws Exception {
        if (!keys.isNone()) {
            assertNull(system.useKeys(keys), "useKeys refused " + keys);
        }
        system.prepare(plan);
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
        } catch (Exception | Error e) {
            closeAll(publishers, subscribers).ifPresent(e::addSuppressed);
            throw e;
        }
        Optional<Exception> closing = closeAll(publishers, subscribers);
        if (closing.isPresent()) {
            throw closing.get();
        }
        return run;
    }

    /** Closes every publisher, then every subscriber, each even when another failed to; the first failure. */
    private static Optional<Exception> closeAll(List<Publisher> publishers, List<Subscriber> subscribers) {
        List<AutoCloseable> all = new ArrayList<>(publishers);
        all.addAll(subscribers);
        FirstFailure failures = new FirstFailure();
        for (AutoCloseable closeable : all) {
            try {
                closeable.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        return Optional.ofNullable(failures.reported("closing"));
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
            assertFalse(thread.isAlive(), thread.getName() + " still publishing after " + WAIT);
        }
        failures.throwIfAny("publishing");
        for (Publisher publisher : publishers) {
            publisher.flush();
        }
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
            if (sequence % ROUNDS_PER_BURST == ROUNDS_PER_BURST - 1) {
                endBursts(ofConnection, publishers);
            }
        }
        endBursts(ofConnection, publishers);
    }

    private static void endBursts(List<Integer> ofConnection, List<Publisher> publishers) throws Exception {
        for (int s : ofConnection) {
            publishers.get(s).endOfBurst();
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
        assertAcks();
    }

    private void assertAcks() {
        for (int s = 0; s < plan.producers(); s++) {
            assertEquals(acknowledges ? messagesPerStream : 0, streams.get(s).sequences.size(), "acks of stream " + s);
            assertEquals(0, streams.get(s).duplicates.get(), "acks of stream " + s + " twice");
        }
    }

    /**
     * Every message of every stream reached consumer {@code index}, each once, and no other
     * consumer (request/reply: the echoes come to the sink the system hands them to, not by topic);
     * each stream's acknowledgements as in {@link #assertExact}; nothing failed.
     */
    public void assertEveryMessageReceivedOnceBy(int index) {
        assertEquals(List.of(), errors);
        Set<Long> all = new HashSet<>();
        for (int s = 0; s < plan.producers(); s++) {
            for (long sequence = 0; sequence < messagesPerStream; sequence++) {
                all.add(id(s, sequence));
            }
        }
        assertEquals(all, consumers.get(index).ids, "consumer " + index);
        assertEquals(0, consumers.get(index).duplicates.get(), "consumer " + index + " got each message once");
        for (int i = 0; i < consumers.size(); i++) {
            if (i != index) {
                assertEquals(0, consumers.get(i).ids.size() + consumers.get(i).duplicates.get(),
                        "messages at consumer " + i);
            }
        }
        assertAcks();
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
