package dev.msgbench.rabbit.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.MessageProperties;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.ProcStat;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.rabbit.QueuePlacements.Placement;
import dev.msgbench.rabbit.QueueType;
import dev.msgbench.rabbit.RabbitMqSystem;
import dev.msgbench.rabbit.RabbitSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real three-node cluster, secured (TLS and a login on every node), shared by the class: it
 * takes 20 to 40 s to start on two busy cores. The last test closes it.
 */
@NeedsBroker
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalRabbitClusterTest {

    private static final String PASSWORD = "cluster-Secret-4kq9";

    @TempDir
    static Path parent;

    @TempDir
    Path dir;

    private static LocalRabbitMq cluster;

    @BeforeAll
    @Timeout(180)
    static void startCluster() {
        long started = System.nanoTime();
        cluster = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults().withNodes(3).withLogDir(parent.resolve("logs"))
                .withSecurity(new BrokerSecurity("bench-user", Secret.of(PASSWORD), false))), parent);
        System.out.printf("cluster ready in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void everyNodeServesTlsOnLoopbackAndSeesAllThreeRunning() throws Exception {
        List<String> names = List.of(cluster.nodeName(1), cluster.nodeName(2), cluster.nodeName(3));
        assertEquals(3, names.stream().distinct().count(), names.toString());
        assertEquals(String.join(",", cluster.url(1), cluster.url(2), cluster.url(3)), cluster.url());
        for (int node = 1; node <= 3; node++) {
            assertEquals("amqps://127.0.0.1:" + cluster.amqpPort(node), cluster.url(node));
            assertEquals(names.stream().sorted().collect(Collectors.toList()),
                    cluster.runningNodeNames(node).stream().sorted().collect(Collectors.toList()), "seen from " + node);
            assertTrue(Files.readString(cluster.logFile(node)).contains("Server startup complete"), "node " + node);
        }
        assertEquals("none", cluster.conf().get("listeners.tcp"));
        assertEquals("classic_config", cluster.conf().get("cluster_formation.peer_discovery_backend"));
        assertEquals(cluster.nodeName(3), cluster.conf().get("cluster_formation.classic_config.nodes.3"));
        assertTrue(cluster.version().startsWith("3."), cluster.version());
    }

    @Test
    @Order(2)
    void aQuorumQueueDeclaredThroughAnyNodeHasAMemberOnEveryNodeAndALeader() throws Exception {
        try (Connection connection = connect(2); Channel channel = connection.createChannel()) {
            channel.queueDeclare("placement-check", true, false, false, Map.of("x-queue-type", "quorum"));
            Placement placement = cluster.placement("placement-check");
            assertEquals(List.of(1, 2, 3), placement.memberNodes());
            assertTrue(placement.leaderNode().isPresent(), placement.toString());
            channel.queueDelete("placement-check");
        }
    }

    @Test
    @Order(3)
    void aRunWithAcksAllOverEveryNodesUrlRecordsThreeReplicasReadBackAndLosesNothing() throws Exception {
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(cluster.url())
                .withQueueType(QueueType.QUORUM).withAcks(Acks.ALL).withReplicas(3).withSecurity(cluster.clientSecurity()), cluster);
        RunResult r = ShortRuns.run(system, dir, 200, 256, 3, 1, Duration.ofMillis(500), Duration.ofSeconds(2));

        assertEquals(RunStatus.COMPLETE, r.status(), String.valueOf(r.error()));
        assertEquals(500, r.counts().received(), "200 msg/s for 2.5 s");
        assertEquals(500, r.counts().acknowledged());
        assertEquals(0, r.counts().lost());
        assertEquals(3, r.durability().get("replicas"));
        assertEquals("quorum", r.durability().get("queueType"));
        assertEquals(3, r.settings().get("nodes"));
        assertEquals("amqps://" + String.join(",", "127.0.0.1:" + cluster.amqpPort(1), "127.0.0.1:" + cluster.amqpPort(2),
                "127.0.0.1:" + cluster.amqpPort(3)), r.settings().get("url"));
    }

    @Test
    @Order(4)
    void theQueuesLeaderKilledAndStartedAgainRejoinsTheClusterAndTheQueueKeepsItsMessage() throws Exception {
        String queue = "rejoin-check";
        int leader;
        try (Connection connection = connect(1); Channel channel = connection.createChannel()) {
            channel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
            channel.confirmSelect();
            channel.basicPublish("", queue, MessageProperties.PERSISTENT_BASIC, "kept".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(10_000);
            leader = cluster.placement(queue).leaderNode().orElseThrow();
        }
        cluster.killNode(leader);
        int other = leader == 1 ? 2 : 1;
        assertFalse(cluster.runningNodeNames(other).contains(cluster.nodeName(leader)), "the killed node is down");

        cluster.restartNode(leader, Duration.ofSeconds(90));

        assertEquals(3, cluster.runningNodeNames(other).size());
        assertEquals(3, cluster.runningNodeNames(leader).size());
        Placement placement = cluster.placement(queue);
        assertEquals(List.of(1, 2, 3), placement.memberNodes());
        try (Connection connection = connect(leader); Channel channel = connection.createChannel()) {
            GetResponse kept = channel.basicGet(queue, true);
            assertEquals("kept", kept == null ? null : new String(kept.getBody(), StandardCharsets.UTF_8));
            channel.queueDelete(queue);
        }
    }

    @Test
    @Order(5)
    void closeStopsEveryNodeAndItsErlangVmAndRemovesTheTempDir() throws Exception {
        List<ProcessHandle> processes = new ArrayList<>();
        for (int node = 1; node <= 3; node++) {
            ProcessHandle script = ProcessHandle.of(cluster.pid(node)).orElseThrow();
            processes.add(script);
            processes.addAll(script.descendants().collect(Collectors.toList()));
        }
        assertEquals(3, processes.stream().filter(h -> h.info().command().orElse("").endsWith("beam.smp")).count(),
                "one Erlang VM per node");
        Path tempDir;
        try (Stream<Path> made = Files.list(parent)) {
            tempDir = made.filter(p -> p.getFileName().toString().startsWith("msgbench-rabbitmq-")).findFirst()
                    .orElseThrow();
        }

        cluster.close();

        for (ProcessHandle h : processes) {
            assertFalse(ProcStat.isRunning(h), h.pid() + " " + h.info().command().orElse("") + " ended");
        }
        assertFalse(Files.exists(tempDir), "temp dir deleted");
        for (int node = 1; node <= 3; node++) {
            assertTrue(Files.readString(cluster.logFile(node)).contains("SIGTERM received - shutting down"),
                    "node " + node + " stopped cleanly");
        }
    }

    private static Connection connect(int node) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(cluster.host(node));
        factory.setPort(cluster.amqpPort(node));
        factory.useSslProtocol(cluster.localSecurity().pki().clientTls().sslContext());
        factory.setUsername("bench-user");
        factory.setPassword(PASSWORD);
        factory.setAutomaticRecoveryEnabled(false);
        return factory.newConnection();
    }
}
