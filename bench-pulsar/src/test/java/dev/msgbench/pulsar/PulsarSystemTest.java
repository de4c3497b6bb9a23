package dev.msgbench.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.pulsar.client.api.CompressionType;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.BrokerBytes;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.MessageSource;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.payload.Payloads;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.pulsar.broker.LocalPulsar;
import dev.msgbench.pulsar.broker.PulsarBrokerSpec;

/** The adapter against one real standalone, shared by the tests (its start takes 15 s or more). */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@NeedsBroker
class PulsarSystemTest {

    private static LocalPulsar pulsar;

    @BeforeAll
    static void start() {
        pulsar = LocalPulsar.start(PulsarBrokerSpec.of(BrokerSpec.defaults()));
    }

    @AfterAll
    static void stop() {
        if (pulsar != null) {
            pulsar.close();
        }
    }

    @Test
    void everyMessageArrivesOnceAndInOrderAndTheDurabilityIsReadBack() throws Exception {
        int count = 2_000;
        Sink sink = new Sink();
        Acked acked = new Acked();
        try (PulsarSystem system = system(null, PulsarBatching.DEFAULT, 0)) {
            system.prepare(new RunPlan("pulsar-order", 100, 1, 1));
            system.subscribe(0, sink).awaitReady(java.time.Duration.ofSeconds(10));
            try (Publisher publisher = system.publisher(0, acked)) {
                for (int i = 0; i < count; i++) {
                    publisher.publish(ByteBuffer.allocate(100).putInt(i).array(), i, 0);
                }
                publisher.flush();
                Poll.until(() -> acked.count.get() == count && sink.received.size() == count);
            }
            for (int i = 0; i < count; i++) {
                assertEquals(i, sink.received.get(i), "in order, once");
            }
            SystemInfo info = system.info();
            assertEquals("4.0.7", info.brokerVersion());
            assertEquals("pulsar-client 4.0.7", info.clientVersion());
            Map<String, Object> durability = info.durability();
            assertEquals("broker default", durability.get("acks"));
            assertEquals("broker default (public/default sets none)", durability.get("persistencePolicy"));
            assertEquals(1, durability.get("bookkeeperAckQuorum"));
            assertEquals(true, durability.get("journalSyncData"), "the suite's standalone fsyncs the journal");
            assertEquals("Exclusive", info.settings().get("subscriptionType"));
            assertEquals(true, info.settings().get("batchingEnabled"));
            assertEquals(1000L, info.settings().get("batchingMaxPublishDelayMicros"), "Pulsar's default, 1 ms");
            assertEquals(1000, info.settings().get("batchingMaxMessages"));
            assertEquals(30_000L, info.settings().get("sendTimeoutMs"), "the client's default, as the producer has it");
            assertEquals("30s", info.settings().get("pulsarSendTimeout"));
        }
    }

    @Test
    void acksAllSetsTheNamespacesQuorumsAndTwoConsumersShareAPartitionedTopic() throws Exception {
        int count = 1_000;
        Sink sink = new Sink();
        Acked acked = new Acked();
        try (PulsarSystem system = system(Acks.ALL, PulsarBatching.OFF, 2)) {
            RunPlan plan = new RunPlan("pulsar-shared", 100, 1, 1).withConsumersPerSubscription(2);
            system.prepare(plan);
            system.subscribe(0, sink);
            system.subscribe(1, sink);
            try (Publisher publisher = system.publisher(0, acked)) {
                for (int i = 0; i < count; i++) {
                    publisher.publish(ByteBuffer.allocate(100).putInt(i).array(), i, 0);
                }
                Poll.until(() -> acked.count.get() == count && sink.received.size() == count);
            }
            assertEquals(count, sink.received.stream().distinct().count(), "each message once");
            assertEquals(2, sink.lanes.size(), "both partitions delivered: " + sink.lanes.keySet());
            SystemInfo info = system.info();
            assertEquals("all", info.durability().get("acks"));
            assertEquals("namespace public/default", info.durability().get("persistencePolicy"));
            assertEquals(1, info.durability().get("bookkeeperAckQuorum"), "one bookie: its write quorum is 1");
            assertEquals("Shared", info.settings().get("subscriptionType"), "several consumers share by default");
            assertEquals(false, info.settings().get("batchingEnabled"));
        }
    }

    @Test
    void anExclusiveSubscriptionOfTwoConsumersIsRefusedNamingTheFlag() throws Exception {
        PulsarSettings settings = new PulsarSettings(pulsar.url(), pulsar.adminUrl(), null, PulsarBatching.DEFAULT,
                SubscriptionType.Exclusive, 0, pulsar, ClientSecurity.NONE);
        try (PulsarSystem system = new PulsarSystem(settings)) {
            UserError refused = assertThrows(UserError.class, () -> system.prepare(
                    new RunPlan("pulsar-exclusive", 100, 1, 1).withConsumersPerSubscription(2)));
            assertEquals("--pulsar-subscription-type exclusive admits one consumer per subscription, and the run has 2; "
                    + "use shared, failover or key_shared", refused.getMessage());
        }
    }

    private static PulsarSystem system(Acks acks, PulsarBatching batching, int partitions) {
        return new PulsarSystem(new PulsarSettings(pulsar.url(), pulsar.adminUrl(), acks, batching, null, partitions,
                pulsar, ClientSecurity.NONE));
    }

    /** The first int of each message, in arrival order, and the lanes they came on. */
    @Test
    void aCompressedRunOfCompressiblePayloadsReachesTheBrokerInFewerBytesByItsOwnCounter() throws Exception {
        long random = bytesIn("pulsar-random", null, PayloadContent.RANDOM);
        long lz4 = bytesIn("pulsar-lz4", CompressionType.LZ4, new PayloadContent.Compressible(0.1));

        // random bodies: every byte sent reaches the broker, with Pulsar's metadata on top
        assertTrue(random >= 2_000L * 1_024, "random: " + random);
        assertTrue(lz4 < random / 4, "lz4 of compressible:0.1: " + lz4 + " against " + random);
    }

    /** The broker's bytesInCounter after 2,000 messages of 1 KiB holding {@code content}, sent with {@code codec}. */
    private static long bytesIn(String run, CompressionType codec, PayloadContent content) throws Exception {
        int count = 2_000;
        Acked acked = new Acked();
        PulsarSettings settings = new PulsarSettings(pulsar.url(), pulsar.adminUrl(), null, PulsarBatching.DEFAULT, null,
                0, pulsar, ClientSecurity.NONE, codec, PulsarSendTimeout.DEFAULT);
        try (PulsarSystem system = new PulsarSystem(settings)) {
            system.prepare(new RunPlan(run, 1_024, 1, 0));
            MessageSource messages = Payloads.of(content, MessageSizes.fixed(1_024), 1).messages(2);
            try (Publisher publisher = system.publisher(0, acked)) {
                for (int i = 0; i < count; i++) {
                    publisher.publish(messages.next(), i, 0);
                }
                publisher.flush();
                Poll.until(() -> acked.count.get() == count);
            }
            assertEquals(codec == null ? "NONE (the client's default)" : codec.name(),
                    system.info().settings().get("compressionType"));
            BrokerBytes bytes = system.brokerBytes();
            assertEquals("pulsar: bytesInCounter of the run's topics (topic stats)", bytes.counter());
            return bytes.bytes();
        }
    }

    /** The first int of each message, in arrival order, and the lanes they came on; {@link SecuredPulsarClusterTest} uses it too. */
    static final class Sink implements MessageSink {
        final List<Integer> received = new CopyOnWriteArrayList<>();
        final Map<Integer, Boolean> lanes = new ConcurrentHashMap<>();

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            received.add(ByteBuffer.wrap(data, offset, length).getInt());
            lanes.put(lane, true);
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            received.add(data.getInt(data.position()));
            lanes.put(lane, true);
        }

        @Override
        public void onError(Throwable error) {
            throw new AssertionError(error);
        }
    }

    static final class Acked implements AckListener {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            count.incrementAndGet();
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            throw new AssertionError(error);
        }
    }
}
