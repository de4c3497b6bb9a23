package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.stream.Environment;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Super streams and single active consumers on the RabbitMQ 4.0 that scripts/setup unpacks from
 * Debian 13 (scripts/rabbitmq-trixie), one node with the stream plugin, shared by the class.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitSuperStreamsTest {

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(90)
    static void startBroker() {
        broker = LocalRabbitMq.start(new RabbitBrokerSpec(BrokerSpec.defaults(), RabbitBrokerSpec.TRIXIE_INSTALL_DIR)
                .withStreams());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theBrokerIsTheNewerRabbitMqThatHasSuperStreams() {
        assertTrue(broker.version().startsWith("4."), broker.version());
    }

    @Test
    void theTargetLetsSuperStreamsAndSingleActiveConsumersThroughForTheNewerInstall() {
        RabbitMqTarget amqp = new RabbitMqTarget();
        amqp.rabbitmqBin = RabbitBrokerSpec.TRIXIE_INSTALL_DIR;
        RabbitStreamsTarget streams = new RabbitStreamsTarget(amqp);
        streams.superStreamPartitions = 3;
        streams.singleActiveConsumer = true;

        streams.validate(Acks.ALL, 1);

        // trixie's point releases may bring a later 4.x: scripts/rabbitmq-trixie takes what the mirror has
        String version = amqp.brokerSpec(BrokerSpec.defaults()).installedVersion().orElseThrow();
        assertFalse(RabbitVersion.before(version, 4, 0), version);
    }

    @Test
    void keyedMessagesReachEveryPartitionOnceAndInOrderAndTheSuperStreamIsDeletedAfter() throws Exception {
        RabbitStreamsSystem system = system(settings().withSuperStreamPartitions(3));
        RunResult r;
        List<Long> committedChunks = new ArrayList<>();
        try (system) {
            r = ShortRuns.keyedWithoutClosing(system, dir, 500, 128, 2, 1, RecordKeys.parse("round-robin", 30));
            try (Environment env = environment()) {
                for (int p = 0; p < 3; p++) {
                    committedChunks.add(env.queryStreamStats(partition(r, p)).committedChunkId());
                }
            }
        }
        ShortRuns.assertEverySubscriptionGotEveryMessage(r, 1);
        assertEquals(3, r.settings().get("superStreamPartitions"));
        assertTrue(committedChunks.stream().allMatch(c -> c >= 0), "every partition holds messages: " + committedChunks);
        assertEquals(1, r.durability().get("replicas"), "read back from the first partition");
        try (Environment env = environment()) {
            assertFalse(env.streamExists(partition(r, 0)), "the run's super stream is deleted with its partitions");
        }
    }

    @Test
    void twoSingleActiveConsumersShareASuperStreamAndDeliverEachMessageOnce() throws Exception {
        RunResult r = ShortRuns.withKeys(system(settings().withSuperStreamPartitions(2).withSingleActiveConsumer(true)),
                dir, 500, 128, RecordKeys.NONE, Destinations.ONE, 1, 2);

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings() + " " + r.error());
        assertTrue(r.counts().sent() > 0);
        assertEquals(r.counts().sent(), r.counts().received(), "two consumers of one subscription, each message once: "
                + r.counts());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("on: the consumers of a subscription are one group, named after it, with one active consumer per "
                + "partition (a takeover resumes after the group's last message)", r.settings().get("singleActiveConsumer"));
    }

    /**
     * The group's two consumers, driven directly, split the partitions between them: once both have
     * read (the broker moves a partition to the second as it subscribes, and it resumes where the
     * first stopped), each partition is read by one of them only, and no message is read twice.
     */
    @Test
    void eachPartitionIsReadByOneOfTheGroupsTwoConsumersAndNoMessageTwice() throws Exception {
        RabbitStreamsSystem system = system(settings().withSuperStreamPartitions(2).withSingleActiveConsumer(true));
        List<Set<Integer>> lanesAfterBothRead = List.of(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
        Map<Long, Integer> readBy = new ConcurrentHashMap<>();
        List<Long> readTwice = new CopyOnWriteArrayList<>();
        Semaphore arrived = new Semaphore(0);
        AtomicLong lanesFrom = new AtomicLong(Long.MAX_VALUE);
        long sent = 0;
        try (system) {
            system.prepare(new RunPlan("msgbench-sac", 8, 1, 2));
            List<Subscriber> consumers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                int consumer = c;
                consumers.add(system.subscribe(c, new Recorder((sequence, lane) -> {
                    if (readBy.putIfAbsent(sequence, consumer) != null) {
                        readTwice.add(sequence);
                    }
                    if (sequence >= lanesFrom.get()) {
                        lanesAfterBothRead.get(consumer).add(lane);
                    }
                    arrived.release();
                })));
            }
            try (Publisher publisher = system.publisher(0, new FailOnNack())) {
                for (int round = 0; round < 50 && !(readBy.containsValue(0) && readBy.containsValue(1)); round++) {
                    sent = publish(publisher, sent, 10);
                    assertTrue(arrived.tryAcquire(10, 20, TimeUnit.SECONDS), "round " + round + " arrives");
                }
                assertEquals(Set.of(0, 1), Set.copyOf(readBy.values()), "both consumers active after " + sent);
                lanesFrom.set(sent);
                sent = publish(publisher, sent, 20);
                assertTrue(arrived.tryAcquire(20, 20, TimeUnit.SECONDS), "the last 20 arrive");
            }
            for (Subscriber consumer : consumers) {
                consumer.close();
            }
        }
        assertEquals(List.of(), readTwice);
        assertEquals(sent, readBy.size());
        assertEquals(Set.of(0, 1), union(lanesAfterBothRead), "both partitions: " + lanesAfterBothRead);
        assertEquals(1, lanesAfterBothRead.get(0).size(), "one partition each: " + lanesAfterBothRead);
        assertEquals(1, lanesAfterBothRead.get(1).size(), "one partition each: " + lanesAfterBothRead);
    }

    /**
     * Publishes {@code count} messages from sequence {@code from}, each its sequence number: routed by
     * it, 10 of them fall on both partitions (two keys might hash alike). Returns the next sequence.
     */
    private static long publish(Publisher publisher, long from, int count) throws Exception {
        for (long sequence = from; sequence < from + count; sequence++) {
            publisher.publish(ByteBuffer.allocate(8).putLong(sequence).array(), sequence, 0);
        }
        return from + count;
    }

    private static Set<Integer> union(List<Set<Integer>> sets) {
        Set<Integer> all = new TreeSet<>();
        sets.forEach(all::addAll);
        return all;
    }

    /** Hands each message's sequence number (its first 8 bytes) and lane on. */
    private record Recorder(BiConsumer<Long, Integer> onMessage) implements MessageSink {

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            onMessage.accept(ByteBuffer.wrap(data, offset, length).getLong(), lane);
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            onMessage.accept(data.getLong(data.position()), lane);
        }

        @Override
        public void onError(Throwable error) {
            throw new AssertionError(error);
        }
    }

    private static final class FailOnNack implements AckListener {

        @Override
        public void acked(long sequence, long intendedSendNanos) {
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            throw new AssertionError("message " + sequence + " not confirmed", error);
        }
    }

    /** The run's first topic's partition {@code p}: the result names the super stream's first and last. */
    private static String partition(RunResult r, int p) {
        String streams = (String) r.settings().get("streams");
        String first = streams.substring(streams.indexOf("of partition streams ") + "of partition streams ".length(),
                streams.indexOf(" to "));
        return first.substring(0, first.length() - 1) + p;
    }

    private static Environment environment() {
        return RabbitStreamsSystem.environment(List.of(broker.url()),
                StreamClientSecurity.of(List.of(broker.url()), ClientSecurity.NONE));
    }

    private static StreamSettings settings() {
        return StreamSettings.defaults(broker.url()).withReplicas(1);
    }

    private static RabbitStreamsSystem system(StreamSettings settings) {
        return new RabbitStreamsSystem(settings, broker);
    }
}
