package dev.msgbench.cli;

import static dev.msgbench.cli.LoopbackPorts.accepts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;

/**
 * The e2e and broker commands against real RabbitMQ nodes that they start themselves, run in-process;
 * the runs that check no broker start use one broker started for the class, with --url.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitMqEndToEndTest {

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker(@TempDir Path logs) {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults().withLogDir(logs)));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void quorumQueuesWithAcksAllOverFourConnectionsEachWayReceiveEverythingAndWriteAllFiles() throws Exception {
        Path out = dir.resolve("quorum");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--queue-type", "quorum", "--acks", "all",
                "--connections", "4", "--rate", "400", "--duration", "2s", "--warmup", "1s", "--keys", "zipf:1.1",
                "--key-count", "100", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(1_200, r.get("counts").get("sent").asLong());
        assertEquals(1_200, r.get("counts").get("received").asLong());
        assertEquals(1_200, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertTrue(d.get("confirms").asBoolean());
        assertEquals("quorum", d.get("queueType").asText());
        assertTrue(d.get("queueDurable").asBoolean());
        assertEquals("persistent", d.get("deliveryMode").asText());
        assertEquals("manual", d.get("consumerAck").asText());
        assertEquals(100, d.get("prefetch").asInt());
        assertEquals(1, d.get("replicas").asInt());
        assertEquals(1000, r.get("settings").get("maxUnconfirmed").asInt());
        // each key a routing key on the stream's topic exchange (RabbitMqSystemTest sees them on the broker)
        assertEquals("zipf:1.1 over 100: the routing key (k<key>) on the stream's topic exchange, whose queues are "
                + "bound with # (every key)", r.get("settings").get("recordKeys").asText());
        assertEquals(4, r.get("workload").get("producers").asInt(), r.get("workload").toString());
        assertTrue(r.get("versions").get("client").asText().startsWith("amqp-client 5."));
        assertTrue(r.get("versions").get("broker").asText().startsWith("3."));
        assertTrue(r.get("broker").get("local").asBoolean());
        for (String file : List.of("latency.hgrm", "service.hgrm", "send-delay.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        assertTrue(Files.readString(out.resolve("broker-logs").resolve("rabbitmq-1.log")).contains("Server startup complete"),
                "the broker's log is kept with the results");
        assertTrue(run.out.contains("sent 1,200   acknowledged 1,200   received 1,200   lost 0"), run.out);
        assertTrue(run.err.contains("rabbitmq 3."), run.err);
        assertTrue(run.err.contains(" ready at amqp://127.0.0.1:"), run.err);
    }

    @Test
    void theDefaultsAreTransientQueuesWithoutConfirmsAndManualAcks() throws Exception {
        Path out = dir.resolve("defaults");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--url", broker.url(), "--rate", "500", "--size", "256B",
                "--duration", "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(1_500, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode d = r.get("durability");
        assertEquals("0", d.get("acks").asText());
        assertFalse(d.get("confirms").asBoolean());
        assertEquals("classic", d.get("queueType").asText());
        assertFalse(d.get("queueDurable").asBoolean());
        assertEquals("transient", d.get("deliveryMode").asText());
        assertEquals("manual", d.get("consumerAck").asText());
        assertTrue(run.out.contains("acknowledged -"), run.out);
    }

    @Test
    void aMessageAboveTheLocalBrokersLimitIsOneLineNamingTheSettingAndExitsWithTwo() {
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--size", "2KiB", "--broker-prop", "max_message_size=1000",
                "--output", dir.resolve("big").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.endsWith("error: --size 2048 B: this RabbitMQ accepts at most 1000 bytes per message; raise "
                + "its max_message_size (--broker-prop max_message_size=2048 for a local broker)" + System.lineSeparator()),
                run.err);
        assertEquals("", run.out);
    }

    @Test
    void theBrokerCommandPrintsAnAddressThatServesAmqpAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "rabbitmq", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("amqp://127\\.0\\.0\\.1:\\d+"), run.out);
        assertFalse(accepts(URI.create(url).getPort()), "the broker is stopped when the command ends");
        assertTrue(run.err.contains("is running with 1 node"), run.err);
        assertTrue(Files.exists(dir.resolve("logs").resolve("rabbitmq-1.log")));
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "rabbitmq", "--url", broker.url());
    }

    /** The queue is declared before the run, so it keeps what the producers send before the consumer subscribes. */
    @Test
    void aConsumerHeldBackUntilABacklogOfTwoThousandFindsThemInItsQueueAndDrainsIt() throws Exception {
        BacklogRuns.runAndAssertDrained("rabbitmq", dir.resolve("backlog"), "--url", broker.url());
    }
}
