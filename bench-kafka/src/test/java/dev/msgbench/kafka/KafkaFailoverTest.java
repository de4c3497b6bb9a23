package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A local three-node cluster: the run's leader by node number, and a killed leader brought back on its data. */
@NeedsBroker
class KafkaFailoverTest {

    private static final String TOPIC = "msgbench-failover";

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void theLeaderIsNamedByItsNodeNumberAndAKilledLeaderComesBackWithTheTopicAndServesClients() throws Exception {
        try (LocalKafkaCluster cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults().withNodes(3).withLogDir(dir));
             KafkaSystem system = new KafkaSystem(new KafkaSettings(cluster.url(), Acks.ALL, 1, 3, Map.of(), Map.of(),
                     CommitMode.AUTO, Duration.ofMillis(100), cluster.version(), Duration.ofSeconds(8), false));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url()))) {
            system.prepare(new RunPlan(TOPIC, 128, 1, 1));

            int leader = system.leaderNode().orElseThrow();
            assertEquals(partition(admin).leader().id(), leader, "node.id is the node number");

            cluster.killNode(leader);
            assertEquals("killed by signal 9 (SIGKILL)", cluster.exitDescription(leader));
            int next = Poll.value(() -> {
                OptionalInt now = system.leaderNode();
                return now.isPresent() && now.getAsInt() != leader ? now.getAsInt() : null;
            });
            assertNotEquals(leader, next);

            cluster.restartNode(leader, Duration.ofSeconds(90));

            assertNull(cluster.exitDescription(leader));
            Poll.value(() -> partition(admin).isr().stream().anyMatch(n -> n.id() == leader) ? true : null);
            assertEquals(3, partition(admin).replicas().size(), "the topic is still there, with its three replicas");
            produceThroughOnly(cluster.url().split(",")[leader - 1]);
        }
    }

    private static TopicPartitionInfo partition(Admin admin) throws Exception {
        TopicDescription topic = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS).get(TOPIC);
        return topic.partitions().get(0);
    }

    /** A producer that knows only the restarted node gets its metadata there and writes with acks=all. */
    private static void produceThroughOnly(String node) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, "after the restart")).get(30, TimeUnit.SECONDS);
        }
    }
}
