package dev.msgbench.cli;

import static dev.msgbench.cli.LoopbackPorts.accepts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** e2e and throughput --system mqtt against a Mosquitto it starts itself, run in-process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class MqttEndToEndTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--mqtt-qos {0}")
    @ValueSource(ints = {0, 1, 2})
    void e2eAtEachQosReceivesEverythingAndRecordsTheWrittenConfig(int qos) throws Exception {
        Path out = dir.resolve("qos" + qos);
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--mqtt-qos", Integer.toString(qos), "--rate", "500",
                "--duration", "2s", "--warmup", "0s", "--topics", "2", "--producers", "2", "--consumers", "1",
                "--subscriptions-per-topic", "2", "--output", out.toString());

        assertEquals(0, run.exitCode, () -> run + "\n--- broker log\n" + brokerLog(out));
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals("mqtt", r.get("system").asText());
        assertEquals(1_000, r.get("counts").get("sent").asLong());
        // fan-out: each message reaches the two subscriptions of its topic
        assertEquals(2_000, r.get("counts").get("received").asLong());
        assertEquals(qos == 0 ? 0 : 1_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode durability = r.get("durability");
        assertEquals(qos, durability.get("qos").asInt());
        assertEquals("clean", durability.get("session").asText());
        assertEquals("false", durability.get("persistence").asText());
        assertEquals("1800", durability.get("autosave_interval").asText());
        assertEquals("0", durability.get("max_queued_messages").asText());
        assertEquals("the mosquitto.conf the suite wrote (Mosquitto reports no setting)",
                durability.get("configSource").asText());
        assertEquals("Eclipse Paho MQTT v3 client 1.2.5", r.get("versions").get("client").asText());
        assertTrue(r.get("versions").get("broker").asText().matches("\\d+\\.\\d+\\.\\d+"), r.toString());
        assertTrue(Files.size(out.resolve("broker-logs").resolve("mosquitto-1.log")) > 0, "broker log kept");
        assertTrue(run.err.contains("ready at mqtt://127.0.0.1:"), run.err);
    }

    /** The same run on RabbitMQ's MQTT plugin and nats-server's MQTT listener, each started by its own launcher. */
    @ParameterizedTest(name = "--mqtt-broker {0}")
    @CsvSource({"rabbitmq,rabbitmq-1.log,mqtt.durable_queue_type", "nats,nats-1.log,jetstream.sync_interval"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void e2eOnTheOtherBrokersLosesNothingAndNamesTheBroker(String broker, String log, String brokerSetting)
            throws Exception {
        Path out = dir.resolve(broker);
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--mqtt-broker", broker, "--mqtt-qos", "1", "--rate", "500",
                "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run::toString);
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(500, r.get("counts").get("acknowledged").asLong());
        assertEquals(500, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        JsonNode durability = r.get("durability");
        assertEquals(broker, durability.get("broker").asText());
        assertEquals(1, durability.get("qos").asInt());
        assertEquals("clean", durability.get("session").asText());
        assertTrue(durability.has(brokerSetting), durability::toString);
        assertTrue(r.get("versions").get("broker").asText().matches("\\d+\\.\\d+\\.\\d+"), r::toString);
        assertTrue(Files.size(out.resolve("broker-logs").resolve(log)) > 0, "broker log kept");
        assertTrue(run.err.contains("ready at mqtt://127.0.0.1:"), run.err);
    }

    /**
     * RabbitMQ's MQTT plugin on each of three nodes: the producer talks to node 1, the subscriber to
     * node 2, where its queue is, so every message crosses between the nodes.
     */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void onARabbitmqClusterEachClientTalksToItsNodeAndNothingIsLost() throws Exception {
        JsonNode r = onThreeNodes("rabbitmq", "rabbitmq-");

        assertEquals("3 nodes, each with the MQTT plugin; a subscription's queue is on the node its client connected "
                + "to, and a classic queue is not replicated: its messages are on that node only",
                r.get("durability").get("cluster").asText());
    }

    /**
     * nats-server's MQTT listener on each node of a three-node JetStream cluster, the producer on
     * node 1 and the subscriber on node 2: MQTT's streams have nats-server's default replicas, the
     * cluster's size up to 3, as the server reports them.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onANatsClusterEachClientTalksToItsNodeAndMqttsStreamsHaveThreeReplicas() throws Exception {
        JsonNode r = onThreeNodes("nats", "nats-");

        JsonNode durability = r.get("durability");
        assertEquals("3", durability.get("mqtt.stream_replicas").asText());
        assertEquals("3 nodes of a JetStream cluster, each with an MQTT listener; MQTT's streams (messages, sessions) "
                + "have 3 replicas (mqtt.stream_replicas), so a stored message is on a majority of 3 nodes before its "
                + "acknowledgement and a session survives the loss of a node", durability.get("cluster").asText());
        assertEquals("stored in the JetStream stream $MQTT_msgs (file storage, 3 replicas, kept until every "
                + "subscription acknowledged it) before the PUBACK", durability.get("messages").asText());
    }

    /** e2e at QoS 1 on a local cluster of three nodes of {@code broker}: each message delivered once, each node's log kept. */
    private JsonNode onThreeNodes(String broker, String logPrefix) throws Exception {
        Path out = dir.resolve("cluster");
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--mqtt-broker", broker, "--brokers", "3", "--mqtt-qos", "1",
                "--rate", "500", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run::toString);
        JsonNode r = ResultTrees.complete(out);
        ResultTrees.assertEachDeliveredOnce(r, 500);
        assertEquals("producer stream i on node i mod 3 + 1, subscriber j on node (j + 1) mod 3 + 1: what a subscriber "
                + "receives crosses between nodes", r.get("settings").get("clientNodes").asText());
        for (int node = 1; node <= 3; node++) {
            assertTrue(Files.size(out.resolve("broker-logs").resolve(logPrefix + node + ".log")) > 0, "node " + node);
        }
        return r;
    }

    private static String brokerLog(Path out) {
        try {
            return Files.readString(out.resolve("broker-logs").resolve("mosquitto-1.log"));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @Test
    void keysAreTopicLevelsAndPersistenceComesFromBrokerProps() throws Exception {
        Path out = dir.resolve("keys");
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--rate", "500", "--duration", "1s", "--warmup", "0s",
                "--keys", "round-robin", "--key-count", "8", "--mqtt-session", "persistent", "--broker-prop", "persistence=true",
                "--broker-prop", "autosave_interval=60", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(500, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("persistent", r.get("durability").get("session").asText());
        assertEquals("true", r.get("durability").get("persistence").asText());
        assertEquals("60", r.get("durability").get("autosave_interval").asText());
    }

    /**
     * The subscriber is held back (--backlog) past the fault, so every message acknowledged before it
     * waits in Mosquitto's memory, queued for the persistent session. A clean stop saves mosquitto.db
     * and the restarted broker delivers all of them; a kill one second in, long before the first
     * autosave (1,800 s), takes them, PUBACK sent or not, and the session with them.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"restart@1s,false", "kill@1s:restart-after=500ms,true"})
    void qos1WithAPersistentSessionKeepsWhatAStopSavedAndLosesToAKillWhatWasNotAutosaved(String fault,
                                                                                       boolean losesAcknowledged)
            throws Exception {
        Path out = dir.resolve("fault");
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--mqtt-qos", "1", "--mqtt-session", "persistent",
                "--broker-prop", "persistence=true", "--rate", "500", "--duration", "4s", "--warmup", "0s", "--backlog",
                "1500", "--drain-timeout", "3s", "--fault", fault, "--output", out.toString());

        ExitCode expected = losesAcknowledged ? ExitCode.ACKNOWLEDGED_LOST : ExitCode.OK;
        assertEquals(expected.code(), run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        JsonNode counts = r.get("counts");
        assertEquals(2_000, counts.get("sent").asLong());
        assertTrue(counts.get("acknowledged").asLong() > 0, counts.toString());
        if (losesAcknowledged) {
            assertTrue(counts.get("acknowledgedLost").asLong() > 0, counts.toString());
        } else {
            assertEquals(0, counts.get("acknowledgedLost").asLong(), counts.toString());
        }
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals(fault.substring(0, fault.indexOf('@')), event.get("kind").asText());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertTrue(event.get("endedAtSeconds").isNumber(), "started again: " + event);
        JsonNode d = r.get("durability");
        assertEquals("persistent", d.get("session").asText());
        assertEquals("true", d.get("persistence").asText());
        assertEquals("1800", d.get("autosave_interval").asText());
        assertEquals("false", d.get("autosave_on_changes").asText());
        assertTrue(d.get("persistence_location").asText().endsWith("/node-1/"), d.toString());
        assertEquals("the sessions and queued messages changed since the last save: Mosquitto saves mosquitto.db "
                + "every 1800 s and on a clean stop, so a kill before the first save loses every one",
                d.get("onKill").asText());
    }

    /** QoS 2 keeps within Mosquitto's max_inflight_messages, beyond which it drops a 3.1.1 publisher. */
    @ParameterizedTest(name = "--mqtt-qos {0}")
    @ValueSource(ints = {1, 2})
    void throughputLosesNothing(int qos) throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "mqtt", "--mqtt-qos", Integer.toString(qos), "--messages",
                "20000", "--size", "100B", "--consumers", "1", "--output", out.toString());
        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(20_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("unsent").asLong());
        assertEquals(qos == 2 ? 20 : 1000, r.get("settings").get("maxInFlightPerProducer").asInt());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--brokers 3|error: --brokers 3: Mosquitto has no cluster, a local MQTT broker is one node; give --brokers 1",
            "--mqtt-broker rabbitmq --mqtt-qos 2|error: --mqtt-qos 2: RabbitMQ 3.10.8's MQTT plugin has QoS 0 and 1 only (it grants QoS 1 to a QoS 2 subscription); give --mqtt-qos 0 or 1, or --mqtt-broker mosquitto or nats",
            "--mqtt-broker hivemq|error: --mqtt-broker must be mosquitto, rabbitmq or nats, got 'hivemq'",
            "--mqtt-qos 3|error: --mqtt-qos must be 0, 1 or 2, got 3",
            "--mqtt-session dirty|error: --mqtt-session must be clean or persistent, got 'dirty'",
            "--acks all|error: --acks all: MQTT has no acks, its QoS is a delivery handshake, not replication; give --mqtt-qos 0, 1 or 2 instead",
            "--backlog 1000|error: --backlog: mqtt keeps nothing for consumers that are held back, so no backlog can build; use a system that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams) (see java -jar bench-all.jar e2e --help)",
    })
    void badInputIsOneLineNamingTheFlag(String args, String expected) {
        List<String> all = new ArrayList<>(List.of("e2e", "--system", "mqtt", "--output", dir.resolve("out").toString()));
        all.addAll(List.of(args.split(" ")));
        CliRun run = CliRun.of(all.toArray(new String[0]));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of(expected), run.err.lines().filter(l -> l.startsWith("error")).toList(), run.toString());
        assertFalse(run.err.contains("ready at"), "refused before a broker starts: " + run.err);
    }

    @Test
    void anMqttFlagWithAnotherSystemIsRefused() {
        CliRun run = CliRun.of("e2e", "--system", "redis", "--mqtt-qos", "2", "--output", dir.resolve("out").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --mqtt-qos applies to --system mqtt only, not redis (see java -jar bench-all.jar e2e --help)",
                run.err.strip(), run.toString());
    }

    @Test
    void theBrokerCommandTakesMqttBrokerForMqttOnly() {
        CliRun run = CliRun.of("broker", "redis", "--mqtt-broker", "nats", "--stop-after", "1s");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --mqtt-broker applies to broker mqtt only, not redis (see java -jar bench-all.jar broker "
                + "--help)", run.err.strip(), run.toString());
    }

    @Test
    void theBrokerCommandPrintsAUrlThatAnswersAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "mqtt", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("mqtt://127\\.0\\.0\\.1:\\d+"), run.out);
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
        assertFalse(accepts(port), "the broker is stopped when the command ends");
        assertTrue(Files.size(dir.resolve("logs").resolve("mosquitto-1.log")) > 0, "its log kept");
    }
}
