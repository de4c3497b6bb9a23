package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;

/** Record keys reach Kafka as the records' keys: each key keeps to one partition, and many keys spread over all. */
@NeedsBroker
class KafkaKeysTest {

    private static final int MESSAGES = 600;
    private static final int KEYS = 30;

    @Test
    @Timeout(120)
    void eachKeyGoesToOnePartitionAndTheKeysSpreadOverSeveral() throws Exception {
        LanesByKey sink = new LanesByKey();
        try (LocalKafkaCluster cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
             KafkaSystem system = new KafkaSystem(new KafkaSettings(cluster.url(), Acks.ALL, 3, 1, Map.of(), Map.of(),
                     CommitMode.AUTO, Duration.ofMillis(100), cluster.version(), Duration.ofSeconds(8), false))) {
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
