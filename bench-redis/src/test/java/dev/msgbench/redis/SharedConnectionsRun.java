package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.redis.broker.RedisTesting;

/**
 * A run at the driver's level whose producer streams and consumers share connections, as the
 * engine drives them: 8 streams on 2 connections, each connection's streams published from one
 * thread, interleaved; 4 topics with 2 subscriptions each, the 8 consumers on 2 connections. Checks
 * at the server (CLIENT LIST) which connections exist, and that every consumer received exactly
 * its topic's messages, each once.
 */
final class SharedConnectionsRun {

    static final int PRODUCERS = 8;
    static final int PRODUCER_CONNECTIONS = 2;
    static final int TOPICS = 4;
    static final int SUBSCRIPTIONS = 2;
    static final int CONSUMERS = TOPICS * SUBSCRIPTIONS;
    static final int CONSUMER_CONNECTIONS = 2;
    static final int MESSAGES_PER_STREAM = 300;

    private final RunPlan plan;
    /** Per consumer: "stream:sequence" received, and how often. */
    private final List<Map<String, Integer>> received = new ArrayList<>();
    private final AtomicInteger acked = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch allReceived;

    SharedConnectionsRun(String runId) {
        this.plan = new RunPlan(runId, 64, PRODUCERS, CONSUMERS, TOPICS, SUBSCRIPTIONS, PRODUCER_CONNECTIONS,
                CONSUMER_CONNECTIONS);
        int expected = 0;
        for (int i = 0; i < CONSUMERS; i++) {
            expected += plan.streamsOf(i).size() * MESSAGES_PER_STREAM;
        }
        this.allReceived = new CountDownLatch(expected);
    }

    RunPlan plan() {
        return plan;
    }

    /**
     * Prepares, subscribes, publishes and waits for every message, then returns CLIENT LIST's
     * lines of the run's producers and consumers while their connections are still open.
     */
    List<String> run(MessagingSystem system, int port, RecordKeys keys) throws Exception {
        if (!keys.isNone()) {
            assertEquals(null, system.useKeys(keys)); // as the engine: before prepare, and only with keys
        }
        system.prepare(plan);
        List<Subscriber> subscribers = new ArrayList<>();
        List<Publisher> publishers = new ArrayList<>();
        try {
            for (int i = 0; i < CONSUMERS; i++) {
                Map<String, Integer> mine = new ConcurrentHashMap<>();
                received.add(mine);
                subscribers.add(system.subscribe(i, sink(mine)));
            }
            for (Subscriber s : subscribers) {
                s.awaitReady(Duration.ofSeconds(10));
            }
            for (int s = 0; s < PRODUCERS; s++) {
                publishers.add(system.publisher(s, acks()));
            }
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < PRODUCER_CONNECTIONS; c++) {
                int connection = c;
                Thread t = new Thread(() -> publishInTurn(publishers, connection, keys), "shared-producer-" + c);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
            for (Publisher p : publishers) {
                p.flush();
            }
            assertTrue(allReceived.await(10, TimeUnit.SECONDS), () -> allReceived.getCount() + " messages missing; "
                    + failure.get());
            return clients(port);
        } finally {
            for (Publisher p : publishers) {
                p.close();
            }
            for (Subscriber s : subscribers) {
                s.close();
            }
        }
    }

    /** The streams of one connection, one message of each in turn, from this one thread. */
    private void publishInTurn(List<Publisher> publishers, int connection, RecordKeys keys) {
        try {
            for (int seq = 0; seq < MESSAGES_PER_STREAM; seq++) {
                for (int s = connection; s < PRODUCERS; s += PRODUCER_CONNECTIONS) {
                    byte[] message = (s + ":" + seq).getBytes(StandardCharsets.US_ASCII);
                    if (keys.isNone()) {
                        publishers.get(s).publish(message, seq, System.nanoTime());
                    } else {
                        publishers.get(s).publish(message, seq % keys.count(), seq, System.nanoTime());
                    }
                }
                if (seq % 50 == 49) {
                    for (int s = connection; s < PRODUCERS; s += PRODUCER_CONNECTIONS) {
                        publishers.get(s).endOfBurst();
                    }
                }
            }
            for (int s = connection; s < PRODUCERS; s += PRODUCER_CONNECTIONS) {
                publishers.get(s).endOfBurst();
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        }
    }

    private MessageSink sink(Map<String, Integer> mine) {
        return new MessageSink() {
            @Override
            public void onMessage(byte[] data, int offset, int length, int lane) {
                mine.merge(new String(data, offset, length, StandardCharsets.US_ASCII), 1, Integer::sum);
                allReceived.countDown();
            }

            @Override
            public void onMessage(ByteBuffer data, int lane) {
                byte[] bytes = new byte[data.remaining()];
                data.get(bytes);
                onMessage(bytes, 0, bytes.length, lane);
            }

            @Override
            public void onError(Throwable error) {
                failure.compareAndSet(null, error);
            }
        };
    }

    private AckListener acks() {
        return new AckListener() {
            @Override
            public void acked(long sequence, long intendedSendNanos) {
                acked.incrementAndGet();
            }

            @Override
            public void failed(long sequence, long intendedSendNanos, Throwable error) {
                failure.compareAndSet(null, error);
            }
        };
    }

    /** Every consumer got each message of its topic's streams once, and nothing else; every message acknowledged. */
    void assertEveryConsumerGotExactlyItsMessages() {
        assertEquals(null, failure.get());
        assertEquals(PRODUCERS * MESSAGES_PER_STREAM, acked.get());
        for (int i = 0; i < CONSUMERS; i++) {
            Map<String, Integer> expected = new TreeMap<>();
            for (int s = 0; s < PRODUCERS; s++) {
                if (plan.topicOf(s) == plan.topicOfConsumer(i)) {
                    for (int seq = 0; seq < MESSAGES_PER_STREAM; seq++) {
                        expected.put(s + ":" + seq, 1);
                    }
                }
            }
            assertEquals(expected, new TreeMap<>(received.get(i)), "consumer " + i);
        }
    }

    /** CLIENT LIST's lines of the run's producers and consumers, by name. */
    static List<String> clients(int port) throws Exception {
        List<String> lines = new ArrayList<>();
        for (String line : RedisTesting.call(port, "CLIENT", "LIST").split("\n")) {
            String name = field(line, "name");
            if (name.startsWith("msgbench-producer") || name.startsWith("msgbench-consumer")) {
                lines.add(line.trim());
            }
        }
        return lines;
    }

    /**
     * The run's connections still at the server once closed, after the server has noticed: a
     * closed socket leaves CLIENT LIST when its event loop reads the end.
     */
    static List<String> clientsLeft(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> left = clients(port);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            RedisTesting.call(port, "PING");
            left = clients(port);
        }
        return left;
    }

    /** A field of a CLIENT LIST line: "name=x" gives x. */
    static String field(String line, String field) {
        for (String part : line.trim().split(" ")) {
            if (part.startsWith(field + "=")) {
                return part.substring(field.length() + 1);
            }
        }
        return "";
    }

    /** The names of {@code clients}, sorted, each with {@code what(line)} after it: "msgbench-consumers-0 sub=8". */
    static List<String> described(List<String> clients, String... fields) {
        List<String> described = new ArrayList<>();
        for (String line : clients) {
            StringBuilder b = new StringBuilder(field(line, "name"));
            for (String f : fields) {
                b.append(' ').append(f).append('=').append(field(line, f));
            }
            described.add(b.toString());
        }
        described.sort(null);
        return described;
    }
}
