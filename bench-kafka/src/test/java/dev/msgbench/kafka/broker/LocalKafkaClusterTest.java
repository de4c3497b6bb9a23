package dev.msgbench.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ProcStat;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.testing.NeedsBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real brokers in child JVMs. Start times are printed to the surefire output file. */
@NeedsBroker
class LocalKafkaClusterTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aSingleNodeClusterServesAnAcksAllWriteAndCloseLeavesNothingBehind() throws Exception {
        long started = System.nanoTime();
        LocalKafkaCluster cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
        System.out.printf("1 node ready in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        long pid = cluster.pid(1);
        Path tempDir = cluster.logDir().getParent();
        int port = Integer.parseInt(cluster.url().substring(cluster.url().indexOf(':') + 1));
        try {
            assertTrue(cluster.url().matches("127\\.0\\.0\\.1:\\d+"), cluster.url());
            assertEquals(1, cluster.nodeCount());
            assertTrue(cluster.version().matches("\\d+\\.\\d+\\.\\d+"), cluster.version());
            assertEquals("1", cluster.effectiveBrokerProps().get("min.insync.replicas"));
            assertEquals("1", cluster.effectiveBrokerProps().get("offsets.topic.replication.factor"));
            assertFalse(cluster.effectiveBrokerProps().containsKey("listeners"), "ports are left out");

            createTopic(cluster, "one", 1, Map.of());
            assertEquals(0, produce(cluster, "one", "hello").offset());
            assertEquals("hello", consumeFirst(cluster, "one"));
            assertTrue(Files.isDirectory(cluster.dataDir(1).resolve("one-0")), "the topic's partition in log.dirs");
            assertTrue(cluster.dataDir(1).startsWith(tempDir), cluster.dataDir(1).toString());
            assertTrue(Files.readString(cluster.logDir().resolve("kafka-1.log")).contains("Kafka Server started"),
                    "the node logs through our log4j2 config into kafka-1.log");
            assertTrue(tempDir.getFileName().toString().startsWith("msgbench-kafka-"), tempDir.toString());
        } finally {
            long closing = System.nanoTime();
            cluster.close();
            System.out.printf("1 node closed in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing));
        }

        assertFalse(ProcessHandle.of(pid).map(ProcStat::isRunning).orElse(false), "node process ended");
        assertEquals(List.of(), kafkaChildren());
        assertFalse(Files.exists(tempDir), "temp dir deleted");
        FreePorts.requireFree(port);
        cluster.close();
    }

    @Test
    @Timeout(90)
    void aThreeNodeClusterTakesAcksAllWritesAtMinInsyncTwoAndANodeCanBeFrozenAndThawed() throws Exception {
        long started = System.nanoTime();
        LocalKafkaCluster cluster = LocalKafkaCluster.start(
                KafkaClusterSpec.of(BrokerSpec.defaults().withNodes(3).withLogDir(dir)));
        System.out.printf("3 nodes ready in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        List<Long> pids = List.of(cluster.pid(1), cluster.pid(2), cluster.pid(3));
        try {
            assertEquals(3, cluster.url().split(",").length);
            assertEquals("2", cluster.effectiveBrokerProps().get("min.insync.replicas"));
            assertEquals("3", cluster.effectiveBrokerProps().get("default.replication.factor"));
            createTopic(cluster, "three", 3, Map.of("min.insync.replicas", "2"));
            produce(cluster, "three", "before");

            cluster.signal(2, Signal.STOP);
            waitUntil(() -> ProcStat.state(pids.get(1)).equals(Optional.of('T')));
            cluster.signal(2, Signal.CONT);
            waitUntil(() -> !ProcStat.isStopped(pids.get(1)));

            produce(cluster, "three", "after");
            assertEquals("before", consumeFirst(cluster, "three"));
            // close must also end a node that is frozen at that moment
            cluster.signal(3, Signal.STOP);
        } finally {
            long closing = System.nanoTime();
            cluster.close();
            System.out.printf("3 nodes closed in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing));
        }

        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcStat::isRunning).orElse(false), "node " + pid + " ended");
        }
        assertTrue(Files.exists(dir.resolve("kafka-3.log")), "logs in a given directory are kept");
    }

    @Test
    @Timeout(60)
    void aBadBrokerPropertyFailsTheStartWithAMessageNamingTheLogFileAndLeavesNothingBehind() throws IOException {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        Path temp = Files.createDirectory(dir.resolve("temp"));
        KafkaClusterSpec spec = KafkaClusterSpec.of(BrokerSpec.defaults().withLogDir(logs)
                .withProps(Map.of("num.network.threads", "abc")));

        UserError e = assertThrows(UserError.class, () -> LocalKafkaCluster.start(spec, temp));

        assertEquals("kafka node 1 storage format failed with exit code 1; see " + logs.resolve("kafka-1.log"),
                e.getMessage());
        assertTrue(Files.readString(logs.resolve("kafka-1.log"))
                .contains("Invalid value abc for configuration num.network.threads"));
        assertEquals(List.of(), kafkaChildren());
        assertEquals(List.of(), list(temp), "the temp dir is gone");
    }

    @Test
    @Timeout(60)
    void aFailedStartWithoutALogDirKeepsOnlyTheLogsOfItsTempDir() throws IOException {
        KafkaClusterSpec spec = KafkaClusterSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("num.network.threads", "abc")));

        UserError e = assertThrows(UserError.class, () -> LocalKafkaCluster.start(spec, dir));

        List<Path> tempDirs = list(dir);
        assertEquals(1, tempDirs.size());
        Path log = tempDirs.get(0).resolve("logs").resolve("kafka-1.log");
        assertEquals("kafka node 1 storage format failed with exit code 1; see " + log, e.getMessage());
        assertEquals(List.of(tempDirs.get(0).resolve("logs")), list(tempDirs.get(0)));
        assertEquals(List.of(log), list(log.getParent()));
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().collect(Collectors.toList());
        }
    }

    /** Kafka JVMs that this JVM started and that still run. */
    private static List<Long> kafkaChildren() {
        return ProcessHandle.current().descendants()
                .filter(ProcStat::isRunning)
                .filter(h -> h.info().commandLine().orElse("").contains("kafka"))
                .map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }

    private static void createTopic(LocalKafkaCluster cluster, String topic, int replicas, Map<String, String> config)
            throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) replicas).configs(config)))
                    .all().get(20, TimeUnit.SECONDS);
        }
    }

    private static RecordMetadata produce(LocalKafkaCluster cluster, String topic, String value) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            return producer.send(new ProducerRecord<>(topic, value)).get(20, TimeUnit.SECONDS);
        }
    }

    /** Reads partition 0 from the start, without a consumer group: no rebalance to wait for. */
    private static String consumeFirst(LocalKafkaCluster cluster, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (values.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            assertNotEquals(List.of(), values, "nothing consumed from " + topic);
            return values.get(0);
        }
    }

    private static void waitUntil(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    @Test
    @Timeout(60)
    void withBrokerCpusTheNodeJvmRunsOnThoseCpusOnly() throws Exception {
        try (LocalKafkaCluster cluster = LocalKafkaCluster.start(
                KafkaClusterSpec.of(BrokerSpec.defaults().withCpus(CpuList.parse("0"))))) {
            assertEquals("0", cpusAllowed(cluster.pid(1)));
            assertTrue(ProcessHandle.of(cluster.pid(1)).orElseThrow().info().command().orElse("").endsWith("/java"),
                    "the pid is the node's JVM, not a wrapper");
        }
    }

    /** Read straight from the kernel, not through the code under test. */
    private static String cpusAllowed(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).trim())
                .findFirst().orElseThrow();
    }
}
