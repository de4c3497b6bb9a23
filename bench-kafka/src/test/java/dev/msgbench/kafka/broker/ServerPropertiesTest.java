package dev.msgbench.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ServerPropertiesTest {

    @TempDir
    Path dir;

    private List<KafkaNode> cluster(int n) {
        return java.util.stream.IntStream.rangeClosed(1, n)
                .mapToObj(id -> new KafkaNode(id, 9000 + 2 * id, 9001 + 2 * id, dir.resolve("node-" + id),
                        dir.resolve("kafka-" + id + ".log")))
                .collect(java.util.stream.Collectors.toList());
    }

    @Test
    @Timeout(5)
    void threeNodesShareAStaticQuorumAndReplicateEverythingThreeTimes() {
        List<KafkaNode> nodes = cluster(3);

        Map<String, String> p = ServerProperties.of(nodes.get(1), nodes, Map.of());

        assertEquals("2", p.get("node.id"));
        assertEquals("1@127.0.0.1:9003,2@127.0.0.1:9005,3@127.0.0.1:9007", p.get("controller.quorum.voters"));
        assertFalse(p.containsKey("controller.quorum.bootstrap.servers"));
        assertEquals("PLAINTEXT://127.0.0.1:9004,CONTROLLER://127.0.0.1:9005", p.get("listeners"));
        assertEquals("3", p.get("offsets.topic.replication.factor"));
        assertEquals("3", p.get("share.coordinator.state.topic.replication.factor"));
        assertEquals("2", p.get("transaction.state.log.min.isr"));
        assertEquals("2", p.get("min.insync.replicas"));
    }

    @Test
    @Timeout(5)
    void oneNodeUsesABootstrapServerAndAMinInsyncOfOne() {
        List<KafkaNode> nodes = cluster(1);

        Map<String, String> p = ServerProperties.of(nodes.get(0), nodes, Map.of());

        assertEquals("127.0.0.1:9003", p.get("controller.quorum.bootstrap.servers"));
        assertFalse(p.containsKey("controller.quorum.voters"));
        assertEquals("1", p.get("min.insync.replicas"));
    }

    @Test
    @Timeout(5)
    void userOverridesComeLastAndSurviveTheRoundTripThroughAFile() throws IOException {
        List<KafkaNode> nodes = cluster(1);
        Map<String, String> p = ServerProperties.of(nodes.get(0), nodes,
                Map.of("min.insync.replicas", "1", "log.flush.interval.messages", "1", "x.path", "C:\\a b=c"));
        Path file = dir.resolve("server.properties");

        ServerProperties.write(p, file);

        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            read.load(in);
        }
        assertEquals("1", read.getProperty("log.flush.interval.messages"));
        assertEquals("C:\\a b=c", read.getProperty("x.path"));
        assertEquals(p.size(), read.size());
    }
}
