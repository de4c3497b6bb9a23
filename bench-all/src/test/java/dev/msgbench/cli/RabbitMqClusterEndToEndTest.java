package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;

/**
 * e2e against a local three-node RabbitMQ cluster that it starts itself: quorum queues by default,
 * confirms from a quorum of replicas with --acks all; and the broker command's cluster measured
 * through --url. Each test starts its own cluster (20 to 40 s on two busy cores).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitMqClusterEndToEndTest {

    @TempDir
    Path dir;

    @Test
    /** One cluster start for both: a 3-node cluster takes 25 s or more to start on 2 busy cores. */
    void threeBrokersWithAcksAllUseAQuorumQueueOnEveryNodeAndItsLeaderKilledMidRunLosesNoAcknowledgedMessage()
            throws Exception {
        Path out = dir.resolve("fault");
        // restarted 1 s after the kill: a node rejoining its cluster took more than the 16 s the run had left
        // after a restart 5 s after the kill (once, on a quiet machine), and the test asserts it came back
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--brokers", "3", "--acks", "all", "--rate", "100",
                "--duration", "20s", "--warmup", "1s", "--fault", "kill@3s:node=leader:restart-after=1s", "--output",
                out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        assertEquals(0, r.get("counts").get("acknowledgedLost").asLong(), r.get("counts").toString());
        assertTrue(r.get("counts").get("acknowledged").asLong() > 1_500, r.get("counts").toString());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertEquals("quorum", d.get("queueType").asText());
        assertEquals(3, d.get("replicas").asInt(), "read back from the broker: a member on every node");
        assertEquals(3, r.get("settings").get("nodes").asInt());
        assertEquals(3, r.get("settings").get("url").asText().split(",").length, r.get("settings").toString());
        for (int node = 1; node <= 3; node++) {
            assertTrue(Files.readString(out.resolve("broker-logs").resolve("rabbitmq-" + node + ".log"))
                    .contains("Server startup complete"), "node " + node + "'s log is kept with the results");
        }
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("kill", event.get("kind").asText());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        int killed = event.get("node").asInt();
        assertTrue(killed >= 1 && killed <= 3, event.toString());
        assertTrue(event.get("endedAtSeconds").isNumber(), "the killed node was started again: " + event);
        String log = Files.readString(out.resolve("broker-logs").resolve("rabbitmq-" + killed + ".log"));
        assertEquals(2, log.split("Server startup complete", -1).length - 1, "started, then started again");
    }

    @Test
    void theBrokerCommandStartsAClusterPrintsEveryNodesUrlAndAnE2eGivenThemAllMeasuresIt() throws Exception {
        Path log = dir.resolve("broker-command.log");
        ManagedProcess command = new JavaChild("broker command", Main.class.getName(),
                List.of("-Djava.io.tmpdir=" + dir), List.of("broker", "rabbitmq", "--brokers", "3"), null, log, null).start();
        try {
            Poll.until(() -> Files.exists(log) && read(log).contains("Ctrl+C stops it") || !command.isAlive());
            assertTrue(command.isAlive(), read(log));
            String urls = Files.readAllLines(log).stream().filter(line -> line.startsWith("amqp://")).findFirst()
                    .orElseThrow();
            assertTrue(urls.matches("amqp://127\\.0\\.0\\.1:\\d+(,amqp://127\\.0\\.0\\.1:\\d+){2}"), urls);
            assertTrue(read(log).contains(" is running with 3 nodes "), read(log));

            Path out = dir.resolve("given");
            CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--url", urls, "--queue-type", "quorum", "--acks",
                    "all", "--rate", "200", "--duration", "2s", "--warmup", "1s", "--output", out.toString());
            assertEquals(0, run.exitCode, run.toString());
            JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
            assertEquals(600, r.get("counts").get("acknowledged").asLong());
            assertEquals(0, ResultTrees.lost(r));
            assertEquals(urls.replace(",amqp://", ","), r.get("settings").get("url").asText());

            ProcessHandle.of(command.pid()).orElseThrow().destroy(); // SIGTERM, as `kill` sends it
            assertTrue(command.awaitExit(Duration.ofSeconds(60)).isPresent(), "ended");
        } finally {
            command.stop(Duration.ofSeconds(5));
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("msgbench-rabbitmq-")).toList(),
                    "every node's data removed");
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
