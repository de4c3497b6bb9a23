package dev.msgbench.cli;

import static dev.msgbench.cli.LoopbackPorts.accepts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** The e2e command against real Kafka brokers that it starts itself, run in-process. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class KafkaEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void e2eAgainstOneLocalBrokerReceivesEverythingAndWritesAllFiles() throws Exception {
        Path out = dir.resolve("one");
        CliRun run = CliRun.of("e2e", "--acks", "all", "--rate", "500", "--duration", "3s", "--warmup", "1s",
                "--partitions", "3", "--producers", "2", "--consumers", "2", "--size", "uniform:32B-4KiB",
                "--keys", "random", "--key-count", "100", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(2_000, r.get("counts").get("sent").asLong());
        // each message at its own length: as many bytes arrived as were sent
        JsonNode sizes = r.get("workload").get("messageSizes");
        assertEquals(sizes.get("sentBytes").asLong(), sizes.get("receivedBytes").asLong());
        assertTrue(sizes.get("minBytes").asLong() < sizes.get("maxBytes").asLong(), sizes.toString());
        assertEquals(2_000, r.get("counts").get("received").asLong());
        assertEquals(2_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertTrue(r.get("rates").has("targetMissed")); // whether it was missed depends on the machine's load, not on us
        assertEquals("all", r.get("durability").get("acks").asText());
        assertEquals(1, r.get("durability").get("replicationFactor").asInt());
        assertEquals("1", r.get("durability").get("min.insync.replicas").asText());
        assertEquals(3, r.get("settings").get("partitions").asInt());
        // each message with its record key (KafkaKeysTest shows the keys choosing the partitions)
        assertEquals("random", r.get("workload").get("keys").asText());
        assertEquals("random over 100: the producer record's key, partitioned by its hash",
                r.get("settings").get("recordKeys").asText());
        assertTrue(r.get("versions").get("client").asText().startsWith("kafka-clients 4."));
        assertTrue(r.get("versions").get("broker").asText().startsWith("4."));
        assertTrue(r.get("broker").get("local").asBoolean());
        assertTrue(r.get("latenciesMs").get("latency").get("p99.9999").asDouble() > 0);
        for (String file : List.of("latency.hgrm", "service.hgrm", "send-delay.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        try (Stream<Path> logs = Files.list(out.resolve("broker-logs"))) {
            assertTrue(logs.findAny().isPresent(), "broker logs are kept with the results");
        }
        assertTrue(run.out.contains("sent 2,000   acknowledged 2,000   received 2,000   lost 0"), run.out);
        assertTrue(run.out.contains("p99.9999"), run.out);
        assertTrue(run.err.contains("ready at 127.0.0.1:"), run.err);
    }

    /**
     * One cluster for two questions, since a three-node start is most of a minute: the topic is
     * replicated three ways with two in sync, and transactions survive the leader's kill mid-run
     * (no committed message lost, no aborted one delivered); the transaction coordinator is found
     * for a fault (a short pause, which any node survives).
     */
    @Test
    void threeLocalBrokersReplicateThreeWaysAndALeaderKilledMidTransactionLosesNoCommittedMessage() throws Exception {
        Path out = dir.resolve("three");
        CliRun run = CliRun.of("e2e", "--brokers", "3", "--replication-factor", "3", "--acks", "all", "--rate", "300",
                "--duration", "4s", "--warmup", "1s", "--transactions", "50", "--abort-every", "3",
                "--fault", "pause=200ms@500ms:node=coordinator", "--fault", "kill@1500ms:node=leader:restart-after=never",
                // KRaft fences a SIGKILLed broker only after broker.session.timeout.ms (9 s), and only then
                // do its partitions and coordinators move: on a saturated machine the committed messages
                // came 13 s and more after the kill, past the default 10 s drain (the drain ends as soon
                // as every one is in, so the bound costs nothing when the failover is quick)
                "--drain-timeout", "60s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode counts = r.get("counts");
        assertEquals(0, counts.get("acknowledgedLost").asLong(), counts.toString());
        assertTrue(counts.get("acknowledged").asLong() > 0, counts.toString());
        assertTrue(counts.get("aborted").asLong() > 0, counts.toString());
        assertEquals(0, counts.get("abortedDelivered").asLong(), counts.toString());
        for (JsonNode fault : r.get("faults")) {
            assertEquals("done", fault.get("event").get("outcome").asText(), r.get("faults").toString());
        }
        // the coordinator of the run's first transactional id, asked of the cluster: one of its nodes
        int coordinator = r.get("faults").get(0).get("event").get("node").asInt();
        assertTrue(coordinator >= 1 && coordinator <= 3, r.get("faults").toString());
        assertEquals(3, r.get("durability").get("replicationFactor").asInt());
        assertEquals("2", r.get("durability").get("min.insync.replicas").asText());
        assertEquals(3, r.get("broker").get("nodes").asInt());
        assertEquals("read_committed", r.get("settings").get("isolationLevel").asText());
    }

    @Test
    void theBrokerCommandPrintsAnAddressThatAcceptsConnectionsAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "kafka", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("127\\.0\\.0\\.1:\\d+"), run.out);
        int port = Integer.parseInt(url.substring(url.indexOf(':') + 1));
        assertFalse(accepts(port), "the broker is stopped when the command ends");
        assertTrue(run.err.contains("is running with 1 node"), run.err);
    }
}
