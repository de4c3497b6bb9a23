package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.core.testing.RideThrough;
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

/**
 * A local three-node cluster: the run's leader by node number, a producer and a consumer that ride
 * through the leader's kill without losing an acknowledged message, and the killed leader brought
 * back on its data.
 */
@NeedsBroker
class KafkaFailoverTest {

    private static final String TOPIC = "msgbench-failover";
    private static final int SIZE = 128;

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void theLeaderIsNamedByItsNodeNumberTheClientsRideThroughItsKillAndItComesBackWithTheTopic() throws Exception {
        try (LocalKafkaCluster cluster = LocalKafkaCluster.start(
                KafkaClusterSpec.of(BrokerSpec.defaults().withNodes(3).withLogDir(dir)));
             KafkaSystem system = new KafkaSystem(new KafkaSettings(cluster.url(), Acks.ALL, 1, 3, Map.of(), Map.of(),
                     CommitMode.AUTO, Duration.ofMillis(100), cluster.version(), Duration.ofSeconds(8), false));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url()))) {
            system.prepare(new RunPlan(TOPIC, 128, 1, 1));

            int leader = system.leaderNode().orElseThrow();
            assertEquals(partition(admin).leader().id(), leader, "node.id is the node number");
            assertEquals(OptionalInt.empty(), system.coordinatorNode(), "without transactions no coordinator");

            RideThrough ride = new RideThrough();
            try (Subscriber subscriber = system.subscribe(0, ride);
                 Publisher publisher = system.publisher(0, ride)) {
                subscriber.awaitReady(Duration.ofSeconds(60));
                RideThrough.publish(publisher, SIZE, 0, 100);
                assertTrue(ride.awaitSettled(0, 100, 30));
                assertTrue(ride.awaitReceived(0, 100, 30));

                cluster.killNode(leader);
                assertEquals("killed by signal 9 (SIGKILL)", cluster.exitDescription(leader));
                RideThrough.publish(publisher, SIZE, 100, 110);
                int next = Poll.value(() -> {
                    OptionalInt now = system.leaderNode();
                    return now.isPresent() && now.getAsInt() != leader ? now.getAsInt() : null;
                });
                assertNotEquals(leader, next);

                assertTrue(ride.awaitSettled(100, 110, 60), "each publish of the election is acknowledged or failed");
                long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                assertTrue(ride.awaitSettled(resumed + 1, resumed + 101, 30));
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 30), "published after the election");
                for (long s = 0; s < resumed; s++) {
                    if (ride.wasAcked(s)) {
                        assertTrue(ride.awaitReceived(s, s + 1, 30), "acknowledged " + s + " arrives");
                    }
                }
                for (long s : ride.failed()) {
                    assertTrue(s < resumed, "only publishes before the new leader served may fail, not " + s);
                }
            }
            assertEquals(List.of(), ride.subscriberErrors());
            assertEquals(List.of(), ride.settledTwice());

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
