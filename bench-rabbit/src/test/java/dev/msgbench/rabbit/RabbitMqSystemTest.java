package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.core.testing.Inspected;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.SharedConnectionsRun;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The adapter driven by the real engine against one real local node, shared by the class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitMqSystemTest {

    /** Lowered from the default 128 MiB so that the size check can be seen to refuse. */
    private static final int MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(90)
    static void startBroker() {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("max_message_size", Integer.toString(MAX_MESSAGE_BYTES)))));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void transientQueuesWithoutConfirmsDeliverEveryMessageOnceAndInOrderToTwoConsumers() throws Exception {
        RabbitSettings settings = RabbitSettings.defaults(broker.url());
        RunResult r = run(settings, 400, 256, 3, 2);

        assertEquals(1_200, r.counts().sent());
        assertEquals(1_200, r.counts().received());
        assertEquals(0, r.counts().acknowledged(), "no confirms, nothing acknowledged");
        assertCleanCounts(r);
        Map<String, Object> d = r.durability();
        assertEquals("0", d.get("acks"));
        assertEquals(false, d.get("confirms"));
        assertEquals("classic", d.get("queueType"));
        assertEquals(false, d.get("queueDurable"));
        assertEquals("transient", d.get("deliveryMode"));
        assertEquals("manual", d.get("consumerAck"));
        assertEquals(100, d.get("prefetch"));
        assertEquals(1, d.get("replicas"));
        assertEquals(broker.version(), d.get("serverVersion"));
        assertEquals(broker.version(), r.versions().get("broker"));
        assertTrue(r.versions().get("client").startsWith("amqp-client 5."), r.versions().toString());
        for (String file : List.of("result.json", "latency.hgrm", "service.hgrm", "latency.hlog")) {
            assertTrue(Files.size(dir.resolve(file)) > 0, file);
        }
    }

    @Test
    void durableQueuesWithConfirmsAcknowledgeEveryPersistentMessage() throws Exception {
        RabbitSettings settings = RabbitSettings.defaults(broker.url()).withQueueType(QueueType.DURABLE).withAcks(Acks.BROKER)
                .withMaxUnconfirmed(1).withConsumerAck(ConsumerAck.AUTO);
        RunResult r = run(settings, 300, 1024, 1, 1);

        assertEquals(900, r.counts().sent());
        assertEquals(900, r.counts().received());
        assertEquals(900, r.counts().acknowledged());
        assertCleanCounts(r);
        assertEquals("1", r.durability().get("acks"));
        assertEquals(true, r.durability().get("confirms"));
        assertEquals(true, r.durability().get("queueDurable"));
        assertEquals("persistent", r.durability().get("deliveryMode"));
        assertEquals("auto", r.durability().get("consumerAck"));
        assertEquals("none (auto ack)", r.durability().get("prefetch"));
        assertEquals(1, r.settings().get("maxUnconfirmed"));
    }

    @Test
    void quorumQueuesWithAcksAllConfirmAfterTheQuorumAndServeMoreConsumersThanStreams() throws Exception {
        RabbitSettings settings = RabbitSettings.defaults(broker.url()).withQueueType(QueueType.QUORUM).withAcks(Acks.ALL)
                .withReplicas(1);
        RunResult r = run(settings, 300, 512, 2, 3);

        assertEquals(900, r.counts().received());
        assertEquals(900, r.counts().acknowledged());
        assertCleanCounts(r);
        assertEquals("quorum", r.durability().get("queueType"));
        assertEquals("all", r.durability().get("acks"));
        assertEquals(1, r.durability().get("replicas"));
        assertEquals("a quorum of the queue's replicas has written the message to disk (fsync)",
                r.durability().get("confirmedWhen"));
    }

    @Test
    void messagesOfOneMebibyteArrive() throws Exception {
        RunResult r = run(RabbitSettings.defaults(broker.url()).withAcks(Acks.BROKER), 20, 1024 * 1024, 1, 1);
        assertEquals(60, r.counts().received());
        assertEquals(60, r.counts().acknowledged());
        assertCleanCounts(r);
    }

    @Test
    void aMessageAboveTheBrokersMaxMessageSizeIsRefusedBeforeTheRunNamingTheSetting() throws Exception {
        int size = MAX_MESSAGE_BYTES + 1;
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url()));
        UserError e;
        try {
            e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-too-large", size, 1, 1)));
        } finally {
            system.close();
        }
        assertEquals("--size 2097153 B: this RabbitMQ accepts at most 2097152 bytes per message; raise its "
                + "max_message_size (--broker-prop max_message_size=2097153 for a local broker)", e.getMessage());
    }

    @Test
    void closeDeletesTheRunsQueues() throws Exception {
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url()).withQueueType(QueueType.DURABLE));
        system.prepare(new RunPlan("msgbench-close-test", 100, 2, 1));
        assertTrue(queueExists("msgbench-close-test.stream-1"));
        system.close();
        assertFalse(queueExists("msgbench-close-test.stream-0"));
        assertFalse(queueExists("msgbench-close-test.stream-1"));
    }

    @Test
    void anUnreachableBrokerIsReportedWithinTenSecondsNamingTheFlag() throws Exception {
        int port = FreePorts.take(1).get(0);
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults("127.0.0.1:" + port));
        long started = System.nanoTime();
        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-nowhere", 100, 1, 1)));
        system.close();
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10));
        assertEquals("--url: no RabbitMQ broker answered at amqp://127.0.0.1:" + port + " within 5 s (Connection "
                + "refused); check the address, or omit --url to start a local broker", e.getMessage());
    }

    @Test
    void amqpsToAPlainPortIsOneLineSayingTheNodeDoesNotSpeakTlsThere() throws Exception {
        int port = java.net.URI.create(broker.url()).getPort();
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults("amqps://127.0.0.1:" + port));
        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-plain", 100, 1, 1)));
        system.close();
        assertEquals("--url: RabbitMQ at amqps://127.0.0.1:" + port + " does not speak TLS on port " + port
                + " (Unsupported or unrecognized SSL message); use amqp:// for a plain port, or its TLS port (5671 by "
                + "default)", e.getMessage());
    }

    @Test
    void streamsAndConsumersSharingConnectionsHaveAChannelEachThereAndGetExactlyTheirTopicsMessages() throws Exception {
        // 8 streams on 2 connections; 4 topics x 1 subscription x 2 members = 8 consumers on 2 connections
        RunPlan plan = new RunPlan("msgbench-shared", 128, 8, 8, 4, 1, 2, 2);
        Map<String, Integer> channels = new TreeMap<>();
        SharedConnectionsRun run;
        try (RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url())
                .withQueueType(QueueType.DURABLE).withAcks(Acks.BROKER))) {
            system.prepare(plan);
            run = SharedConnectionsRun.run(system, plan, 100, RecordKeys.NONE, true,
                    (publishers, subscribers) -> channels.putAll(broker.connectionChannels()));
            assertEquals("2, each shared by its streams, a channel each", system.info().settings().get("producerConnections"));
        }
        run.assertExact();
        assertEquals(Map.of("msgbench-admin", 0, "msgbench-consumer-connection-0", 4, "msgbench-consumer-connection-1", 4,
                "msgbench-producer-connection-0", 4, "msgbench-producer-connection-1", 4), channels);
        assertEquals(Map.of(), broker.connectionChannels(), "every connection closed with its last user and the system");
    }

    @Test
    void sharedConnectionsKeepKeysFanOutAndQuorumQueues() throws Exception {
        // 4 streams on 2 connections; 2 topics x 2 subscriptions x 1 member = 4 consumers on 2 connections
        RunPlan plan = new RunPlan("msgbench-shared-fanout", 128, 4, 4, 2, 2, 2, 2);
        RabbitSettings settings = RabbitSettings.defaults(broker.url()).withQueueType(QueueType.QUORUM).withAcks(Acks.ALL)
                .withReplicas(1);
        Map<String, Integer> channels = new TreeMap<>();
        SharedConnectionsRun run;
        try (RabbitMqSystem system = new RabbitMqSystem(settings)) {
            RecordKeys keys = RecordKeys.parse("round-robin", 10);
            assertEquals(null, system.useKeys(keys));
            system.prepare(plan);
            run = SharedConnectionsRun.run(system, plan, 50, keys, true,
                    (publishers, subscribers) -> channels.putAll(broker.connectionChannels()));
        }
        run.assertExact();
        assertEquals(Map.of("msgbench-admin", 0, "msgbench-consumer-connection-0", 2, "msgbench-consumer-connection-1", 2,
                "msgbench-producer-connection-0", 2, "msgbench-producer-connection-1", 2), channels);
    }

    private RunResult run(RabbitSettings settings, double rate, int size, int producers, int consumers)
            throws Exception {
        return ShortRuns.run(new RabbitMqSystem(settings), dir, rate, size, producers, consumers, Duration.ofSeconds(1),
                Duration.ofSeconds(2));
    }

    private static void assertCleanCounts(RunResult r) {
        assertEquals(RunStatus.COMPLETE, r.status(), String.valueOf(r.error()));
        assertEquals(r.counts().sent(), r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().sendErrors());
    }

    private static boolean queueExists(String queue) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(broker.url());
        try (Connection connection = factory.newConnection()) {
            Channel channel = connection.createChannel();
            try {
                channel.queueDeclarePassive(queue);
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    @Test
    void messagesOfManySizesArriveAtTheirOwnLengths() throws Exception {
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new RabbitMqSystem(RabbitSettings.defaults(broker.url())),
                dir, 500, "uniform:32B-4KiB", 2, 1));
    }

    @Test
    void recordKeysAreRoutingKeysOnATopicExchangeAndEachSubscriptionGetsEveryMessageInOrder() throws Exception {
        RabbitSettings settings = RabbitSettings.defaults(broker.url()).withQueueType(QueueType.QUORUM).withAcks(Acks.ALL)
                .withReplicas(1);
        RabbitMqSystem rabbit = new RabbitMqSystem(settings);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(broker.url());
        Set<String> routingKeys = new TreeSet<>();
        RunResult r;
        try (Connection watcher = factory.newConnection()) {
            Channel channel = watcher.createChannel();
            // a queue of the test's own on stream 0's exchange sees the routing keys the messages came with
            String spy = channel.queueDeclare().getQueue();
            r = ShortRuns.withKeys(new Inspected(rabbit, plan -> channel.queueBind(spy, rabbit.queueOf(0), "#"),
                    Inspected.Look.NONE), dir, 300, 128, RecordKeys.parse("round-robin", 10), new Destinations(1, 2), 2, 1);
            for (GetResponse m = channel.basicGet(spy, true); m != null; m = channel.basicGet(spy, true)) {
                routingKeys.add(m.getEnvelope().getRoutingKey());
            }
        }

        ShortRuns.assertEverySubscriptionGotEveryMessage(r, 2);
        assertEquals(new TreeSet<>(List.of("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9")), routingKeys);
        assertEquals("round-robin over 10: the routing key (k<key>) on the stream's topic exchange, whose queues are "
                + "bound with # (every key)", r.settings().get("recordKeys"));
    }
}
