package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.nats.broker.ServerMonitor;

/**
 * Drives a NATS system as the engine does with producer streams sharing threads and consumers
 * sharing connections, before the engine's flags exist: 12 producer streams on 3 connections
 * (one publishing thread each), 6 topics of 2 subscriptions, the 12 consumers on 2 connections.
 * Asserts at the server that exactly those connections exist, and that each consumer received
 * exactly the messages of its topic, once each.
 */
final class SharedConnectionsRun {

    static final RunPlan PLAN_SHAPE = new RunPlan("shape", 64, 12, 12, 6, 2, 3, 2);
    private static final int ROUNDS = 100;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private SharedConnectionsRun() {
    }

    /** The plan with this run's id. */
    static RunPlan plan(String runId) {
        RunPlan p = PLAN_SHAPE;
        return new RunPlan(runId, p.messageSizeBytes(), p.producers(), p.consumers(), p.topics(),
                p.subscriptionsPerTopic(), p.producerConnections(), p.consumerConnections());
    }

    /** The client names /connz shows while the run is open: setup, 3 producer and 2 consumer connections. */
    static List<String> expectedNames() {
        List<String> names = new ArrayList<>(List.of("msgbench-setup"));
        for (int c = 0; c < PLAN_SHAPE.producerConnections(); c++) {
            names.add("msgbench-producers-" + c);
        }
        for (int c = 0; c < PLAN_SHAPE.consumerConnections(); c++) {
            names.add("msgbench-consumers-" + c);
        }
        return sorted(names);
    }

    /**
     * @param keys        the run's record keys, or {@link RecordKeys#NONE}
     * @param awaitsAcks  whether every message is acknowledged to its own stream's listener
     */
    static void run(MessagingSystem system, String runId, RecordKeys keys, ServerMonitor monitor, boolean awaitsAcks)
            throws Exception {
        RunPlan plan = plan(runId);
        if (!keys.isNone()) {
            assertNull(system.useKeys(keys));
        }
        system.prepare(plan);
        assertEquals("3 for 12 producer streams (stream s on connection s mod 3, each used by one producer thread); "
                + "2 for 12 consumers (consumer i on connection i mod 2, each message handed to its own consumer)",
                system.info().settings().get("connections"));
        List<Recording> sinks = new ArrayList<>();
        List<Subscriber> subscribers = new ArrayList<>();
        List<Publisher> publishers = new ArrayList<>();
        List<CountingAcks> acks = new ArrayList<>();
        try {
            for (int i = 0; i < plan.consumers(); i++) {
                Recording sink = new Recording(plan.streamsOf(i).size() * ROUNDS);
                sinks.add(sink);
                subscribers.add(system.subscribe(i, sink));
            }
            // as the engine does: every consumer made before any is awaited
            for (Subscriber subscriber : subscribers) {
                subscriber.awaitReady(WAIT);
            }
            for (int s = 0; s < plan.producers(); s++) {
                acks.add(new CountingAcks(awaitsAcks ? ROUNDS : 0));
                publishers.add(system.publisher(s, acks.get(s)));
            }
            assertEquals(expectedNames(), namesSettled(monitor, expectedNames()));

            publishFromOneThreadPerConnection(plan, publishers, keys);

            for (int i = 0; i < plan.consumers(); i++) {
                assertTrue(sinks.get(i).all.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                        "consumer " + i + " received " + sinks.get(i).ids.size() + " of " + sinks.get(i).expected);
            }
            for (int s = 0; s < plan.producers(); s++) {
                assertTrue(acks.get(s).all.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                        "stream " + s + " had " + acks.get(s).acked.get() + " acks");
            }
        } finally {
            closeAll(publishers);
            closeAll(subscribers);
        }
        assertEquals(List.of("msgbench-setup"), namesSettled(monitor, List.of("msgbench-setup")),
                "each shared connection closed with its last user");
        for (int i = 0; i < plan.consumers(); i++) {
            Recording sink = sinks.get(i);
            sink.failures.throwIfAny("consumer " + i);
            assertEquals(expectedIds(plan, i), new TreeSet<>(sink.ids), "consumer " + i);
            assertEquals(sink.expected, sink.ids.size(), "consumer " + i + " got each message once");
        }
        for (int s = 0; s < plan.producers(); s++) {
            assertEquals(0, acks.get(s).failed.get(), "stream " + s);
            assertEquals(awaitsAcks ? ROUNDS : 0, acks.get(s).acked.get(), "stream " + s + "'s own PubAcks");
        }
    }

    /**
     * Request/reply with 4 streams of 2 topics on 2 connections and both responders on one: every
     * request is echoed once, and the echoes reach the core through the sink the system hands them
     * to (the last subscriber's, as without sharing).
     *
     * @param expectedNames the client names /connz shows while the run is open
     */
    static void requestReply(MessagingSystem system, String runId, ServerMonitor monitor, List<String> expectedNames)
            throws Exception {
        RunPlan plan = new RunPlan(runId, 64, 4, 2, 2, 1, 2, 1);
        system.prepare(plan);
        Recording echoes = new Recording(plan.producers() * ROUNDS);
        List<Subscriber> subscribers = new ArrayList<>();
        List<Publisher> publishers = new ArrayList<>();
        try {
            subscribers.add(system.subscribe(0, new Recording(0)));
            subscribers.add(system.subscribe(1, echoes));
            for (Subscriber subscriber : subscribers) {
                subscriber.awaitReady(WAIT);
            }
            for (int s = 0; s < plan.producers(); s++) {
                publishers.add(system.publisher(s, new CountingAcks(0)));
            }
            assertEquals(sorted(expectedNames), namesSettled(monitor, sorted(expectedNames)));
            publishFromOneThreadPerConnection(plan, publishers, RecordKeys.NONE);
            assertTrue(echoes.all.await(WAIT.toSeconds(), TimeUnit.SECONDS), echoes.ids.size() + " echoes");
        } finally {
            closeAll(publishers);
            closeAll(subscribers);
        }
        assertEquals(List.of("msgbench-setup"), namesSettled(monitor, List.of("msgbench-setup")));
        echoes.failures.throwIfAny("the echo receiver");
        Set<Long> all = new TreeSet<>();
        for (int s = 0; s < plan.producers(); s++) {
            for (int round = 0; round < ROUNDS; round++) {
                all.add(id(s, round));
            }
        }
        assertEquals(all, new TreeSet<>(echoes.ids));
        assertEquals(echoes.expected, echoes.ids.size(), "each request echoed once");
    }

    /** What the engine does with --producer-threads 3: each thread sends every stream of its connection in turn. */
    private static void publishFromOneThreadPerConnection(RunPlan plan, List<Publisher> publishers, RecordKeys keys)
            throws Exception {
        FirstFailure failures = new FirstFailure();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < plan.producerConnections(); c++) {
            int connection = c;
            threads.add(new Thread(() -> {
                try {
                    for (int round = 0; round < ROUNDS; round++) {
                        for (int s = connection; s < plan.producers(); s += plan.producerConnections()) {
                            byte[] message = ByteBuffer.allocate(PayloadHeader.BYTES + 8).putLong(id(s, round)).array();
                            if (keys.isNone()) {
                                publishers.get(s).publish(message, round, 0);
                            } else {
                                publishers.get(s).publish(message, round % keys.count(), round, 0);
                            }
                            if (round % 10 == 9) {
                                publishers.get(s).endOfBurst();
                            }
                        }
                    }
                    for (int s = connection; s < plan.producers(); s += plan.producerConnections()) {
                        publishers.get(s).endOfBurst();
                        publishers.get(s).flush();
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }, "producers-" + c));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        failures.throwIfAny("a publishing thread");
    }

    private static long id(int stream, int round) {
        return stream * 1_000_000L + round;
    }

    private static Set<Long> expectedIds(RunPlan plan, int consumer) {
        Set<Long> ids = new TreeSet<>();
        for (int s : plan.streamsOf(consumer)) {
            for (int round = 0; round < ROUNDS; round++) {
                ids.add(id(s, round));
            }
        }
        return ids;
    }

    /** The server notices a closed client when its socket closes: asked again until it shows. */
    private static List<String> namesSettled(ServerMonitor monitor, List<String> expected) throws Exception {
        try {
            return Poll.valueWithin(WAIT, () -> {
                List<String> names = sorted(monitor.connectionNames());
                return names.equals(expected) ? names : null;
            });
        } catch (AssertionError notYet) {
            // the assertion that follows shows how they differ
            return sorted(monitor.connectionNames());
        }
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().collect(Collectors.toList());
    }

    private static void closeAll(List<? extends AutoCloseable> all) throws Exception {
        FirstFailure failures = new FirstFailure();
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        failures.throwIfAny("closing");
    }

    /** One logical consumer's own sink: the id of every message it got. */
    private static final class Recording implements MessageSink {
        final int expected;
        final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        final CountDownLatch all;
        final FirstFailure failures = new FirstFailure();

        Recording(int expected) {
            this.expected = expected;
            this.all = new CountDownLatch(expected);
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            ids.add(ByteBuffer.wrap(data, offset, length).getLong());
            all.countDown();
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            ids.add(data.getLong(data.position()));
            all.countDown();
        }

        @Override
        public void onError(Throwable error) {
            failures.add(error);
        }
    }

    /** One stream's own AckListener. */
    private static final class CountingAcks implements AckListener {
        final AtomicLong acked = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final CountDownLatch all;

        CountingAcks(int expected) {
            this.all = new CountDownLatch(expected);
        }

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            acked.incrementAndGet();
            all.countDown();
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            failed.incrementAndGet();
        }
    }
}
