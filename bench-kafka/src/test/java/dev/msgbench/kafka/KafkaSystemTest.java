package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.SharedConnectionsRun;
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;

/** The adapter against one local broker, shared by the class: starting one takes long. */
@NeedsBroker
class KafkaSystemTest {

    private static final int MESSAGES = 600;
    private static final int KEYS = 30;

    private static LocalKafkaCluster cluster;

    @BeforeAll
    @Timeout(120)
    static void startBroker() {
        cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
    }

    @AfterAll
    static void stopBroker() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Record keys reach Kafka as the records' keys: each key keeps to one partition, and many keys spread over all. */
    @Test
    @Timeout(120)
    void eachKeyGoesToOnePartitionAndTheKeysSpreadOverSeveral() throws Exception {
        LanesByKey sink = new LanesByKey();
        try (KafkaSystem system = new KafkaSystem(settings(3, CommitMode.AUTO))) {
            RecordKeys keys = RecordKeys.parse("round-robin", KEYS);
            assertNull(system.useKeys(keys));
            system.prepare(new RunPlan("msgbench-keys", 64, 1, 1));
            try (Subscriber subscriber = system.subscribe(0, sink);
                 Publisher publisher = system.publisher(0, sink)) {
                subscriber.awaitReady(Duration.ofSeconds(60));
                RecordKeys.Chooser chooser = keys.chooser(1);
                for (long sequence = 0; sequence < MESSAGES; sequence++) {
                    byte[] message = new byte[64];
                    PayloadHeader.write(message, 1, 0, sequence, System.nanoTime());
                    // round-robin from 0: message s has key s mod KEYS
                    publisher.publish(message, chooser.next(), sequence, sequence);
                }
                publisher.flush();
                assertTrue(sink.all.await(60, TimeUnit.SECONDS), "received " + sink.lanes.size() + " of " + MESSAGES);
            }
            assertTrue(system.info().settings().get("recordKeys").toString().startsWith("round-robin over 30"));
        }
        assertEquals(List.of(), sink.errors);
        Set<Integer> partitions = new HashSet<>();
        for (int key = 0; key < KEYS; key++) {
            Set<Integer> ofKey = new HashSet<>();
            for (long s = key; s < MESSAGES; s += KEYS) {
                ofKey.add(sink.lanes.get(s));
            }
            assertEquals(1, ofKey.size(), "key k" + key + " went to partitions " + ofKey);
            partitions.addAll(ofKey);
        }
        assertEquals(Set.of(0, 1, 2), partitions, "30 keys' hashes cover three partitions");
    }

    @Test
    @Timeout(120)
    void streamsSharingProducersAndConsumersSharingOneGroupPerSubscriptionGetExactlyTheirTopicsMessages()
            throws Exception {
        // 8 streams on 2 producers; 4 topics x 1 subscription x 2 members = 8 consumers on 2 KafkaConsumers
        RunPlan plan = new RunPlan("msgbench-shared", 64, 8, 8, 4, 1, 2, 2);
        Map<String, ConsumerGroupDescription> groups = new TreeMap<>();
        Set<String> producers = new TreeSet<>();
        Set<String> producersAfterClosingSeven = new TreeSet<>();
        SharedConnectionsRun run;
        try (KafkaSystem system = new KafkaSystem(settings(2, CommitMode.SYNC));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url()))) {
            RecordKeys keys = RecordKeys.parse("round-robin", 10);
            assertNull(system.useKeys(keys));
            system.prepare(plan);
            run = SharedConnectionsRun.run(system, plan, 100, keys, true, (publishers, subscribers) -> {
                groups.putAll(admin.describeConsumerGroups(List.of("msgbench-shared-s0")).all().get(30, TimeUnit.SECONDS));
                producers.addAll(producerClientIds());
                for (Publisher publisher : publishers.subList(0, 7)) {
                    publisher.close();
                }
                producersAfterClosingSeven.addAll(producerClientIds());
            });
            assertEquals("one per subscription number, over every topic: msgbench-shared-s<subscription>",
                    system.info().settings().get("consumerGroups"));
            assertEquals(Set.of(), producerClientIds(), "closed with their last streams");
        }
        run.assertExact();
        assertEquals(Set.of("msgbench-producer-connection-0", "msgbench-producer-connection-1"), producers);
        assertEquals(Set.of("msgbench-producer-connection-1"), producersAfterClosingSeven, "stream 7 holds its producer");
        ConsumerGroupDescription group = groups.get("msgbench-shared-s0");
        Set<String> clients = new TreeSet<>();
        for (MemberDescription member : group.members()) {
            clients.add(member.clientId());
            Set<String> topics = new TreeSet<>();
            member.assignment().topicPartitions().forEach(p -> topics.add(p.topic()));
            assertEquals(Set.of("msgbench-shared-t0", "msgbench-shared-t1", "msgbench-shared-t2", "msgbench-shared-t3"),
                    topics, "each member reads a partition of every topic");
        }
        assertEquals(Set.of("msgbench-consumer-connection-0", "msgbench-consumer-connection-1"), clients);
    }

    @Test
    @Timeout(120)
    void consumersSharingAConsumerSubscribedAfterEveryMessageWasStoredReadThemAll() throws Exception {
        // --consume-after-produce: 4 streams on 1 producer; 2 topics x 1 subscription x 1 member on 1 consumer
        RunPlan plan = new RunPlan("msgbench-shared-later", 64, 4, 2, 2, 1, 1, 1);
        SharedConnectionsRun run;
        try (KafkaSystem system = new KafkaSystem(settings(2, CommitMode.ASYNC))) {
            system.prepare(plan);
            run = SharedConnectionsRun.run(system, plan, 100, RecordKeys.NONE, true, true, (publishers, subscribers) -> {
            });
        }
        run.assertExact();
    }

    /**
     * A share consumer that fails mid-run (its handler throws before it acknowledges a batch) is
     * closed, and the broker gives the records it held to the group's other member: each arrives
     * there with a delivery count of 2, which the witness counts, and none is lost. The failing
     * member alone reads the first messages, so it surely holds some; the other joins after.
     */
    @Test
    @Timeout(120)
    void theRecordsOfAShareConsumerThatFailedMidRunAreRedeliveredToTheOtherMemberAndNoneIsLost() throws Exception {
        int first = 100;
        FailingOnFirstBatch failing = new FailingOnFirstBatch();
        LanesByKey other = new LanesByKey();
        try (KafkaSystem system = new KafkaSystem(settings(1, CommitMode.AUTO), new ShareSettings(ConsumerKind.SHARE, 0))) {
            system.prepare(new RunPlan("msgbench-share-failed", 64, 1, 2));
            try (Subscriber failingMember = system.subscribe(0, failing);
                 Publisher publisher = system.publisher(0, other)) {
                publish(publisher, 0, first);
                assertTrue(failing.failed.await(60, TimeUnit.SECONDS), "the first member read a batch");
                try (Subscriber otherMember = system.subscribe(1, other)) {
                    publish(publisher, first, MESSAGES);
                    assertTrue(other.all.await(90, TimeUnit.SECONDS), "received " + other.lanes.size() + " of " + MESSAGES);
                }
            }
            String witness = system.deliveryPromise().witness();
            Matcher redelivered = Pattern.compile("Kafka's delivery count: ([\\d,]+) records received more than once, 0 "
                    + "released on purpose").matcher(witness);
            assertTrue(redelivered.matches(), witness);
            assertTrue(Long.parseLong(redelivered.group(1).replace(",", "")) >= failing.held.size(),
                    witness + "; the failed member held " + failing.held.size());
        }
        assertEquals(List.of(), other.errors);
        assertEquals(List.of("the handler failed"), failing.errors.stream().map(Throwable::getMessage).toList());
        assertTrue(!failing.held.isEmpty() && other.lanes.keySet().containsAll(failing.held),
                "the records the failed member held went to the other: " + failing.held);
    }

    private static void publish(Publisher publisher, long from, long to) throws Exception {
        for (long sequence = from; sequence < to; sequence++) {
            byte[] message = new byte[64];
            PayloadHeader.write(message, 1, 0, sequence, System.nanoTime());
            publisher.publish(message, sequence, sequence);
        }
        publisher.flush();
    }

    /** A consumer's handler that fails on the first batch it is handed, before the batch is acknowledged. */
    private static final class FailingOnFirstBatch implements MessageSink {

        final Set<Long> held = ConcurrentHashMap.newKeySet();
        final CountDownLatch failed = new CountDownLatch(1);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();

        @Override
        public <T> void onMessages(List<T> messages, Function<? super T, ByteBuffer> valueOf, int lane, long receivedNanos) {
            messages.forEach(m -> held.add(PayloadHeader.sequence(valueOf.apply(m))));
            throw new IllegalStateException("the handler failed");
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            throw new AssertionError("a share consumer hands over batches");
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            throw new AssertionError("a share consumer hands over batches");
        }

        @Override
        public void onError(Throwable error) {
            errors.add(error);
            failed.countDown();
        }
    }

    /** The client ids of the KafkaProducers open in this JVM, as the client registers them. */
    private static Set<String> producerClientIds() throws Exception {
        Set<String> ids = new TreeSet<>();
        for (ObjectName name : ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("kafka.producer:type=app-info,id=msgbench-producer-*"), null)) {
            ids.add(name.getKeyProperty("id"));
        }
        return ids;
    }

    private static KafkaSettings settings(int partitions, CommitMode commitMode) {
        return new KafkaSettings(cluster.url(), Acks.ALL, partitions, 1, Map.of(), Map.of(), commitMode,
                Duration.ofMillis(100), cluster.version(), Duration.ofSeconds(8), false);
    }

    /** The partition each message arrived on, by sequence. */
    private static final class LanesByKey implements MessageSink, AckListener {

        final Map<Long, Integer> lanes = new ConcurrentHashMap<>();
        final CountDownLatch all = new CountDownLatch(MESSAGES);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            if (lanes.putIfAbsent(PayloadHeader.sequence(data, offset), lane) == null) {
                all.countDown();
            }
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            if (lanes.putIfAbsent(PayloadHeader.sequence(data), lane) == null) {
                all.countDown();
            }
        }

        @Override
        public void onError(Throwable error) {
            errors.add(error);
        }

        @Override
        public void acked(long sequence, long intendedSendNanos) {
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            errors.add(error);
        }
    }
}
