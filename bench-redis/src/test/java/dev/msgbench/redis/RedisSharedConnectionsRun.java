package dev.msgbench.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.testing.SharedConnectionsRun;
import dev.msgbench.redis.broker.RedisTesting;

/**
 * Redis's shape of bench-core's {@link SharedConnectionsRun}: 8 streams on 2 connections, each
 * connection's streams published from one thread, interleaved; 4 topics with 2 subscriptions each,
 * the 8 consumers on 2 connections. Gives CLIENT LIST's lines of the run while it is open, so that
 * a test checks at the server which connections exist, and checks that every consumer received
 * exactly its topic's messages, each once, and every message was acknowledged.
 */
final class RedisSharedConnectionsRun {

    private static final int PRODUCERS = 8;
    private static final int PRODUCER_CONNECTIONS = 2;
    private static final int TOPICS = 4;
    private static final int SUBSCRIPTIONS = 2;
    private static final int CONSUMERS = TOPICS * SUBSCRIPTIONS;
    private static final int CONSUMER_CONNECTIONS = 2;
    private static final int MESSAGES_PER_STREAM = 300;

    private final RunPlan plan;
    private SharedConnectionsRun run;

    RedisSharedConnectionsRun(String runId) {
        this.plan = new RunPlan(runId, 64, PRODUCERS, CONSUMERS, TOPICS, SUBSCRIPTIONS, PRODUCER_CONNECTIONS,
                CONSUMER_CONNECTIONS);
    }

    /**
     * Prepares, subscribes, publishes and waits for every message and acknowledgement, then returns
     * CLIENT LIST's lines of the run's producers and consumers while their connections are still open.
     */
    List<String> run(MessagingSystem system, int port, RecordKeys keys) throws Exception {
        SharedConnectionsRun.prepare(system, plan, keys);
        List<String> clients = new ArrayList<>();
        run = SharedConnectionsRun.run(system, plan, MESSAGES_PER_STREAM, keys, true,
                (publishers, subscribers) -> clients.addAll(clients(port)));
        return clients;
    }

    /** Every consumer got each message of its topic's streams once, and nothing else; every message acknowledged. */
    void assertEveryConsumerGotExactlyItsMessages() {
        run.assertExact();
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
