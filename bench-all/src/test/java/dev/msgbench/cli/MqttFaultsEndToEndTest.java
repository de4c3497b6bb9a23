package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.testing.NeedsBroker;

/**
 * What each MQTT broker promises across a fault of its node, with a persistent session: the
 * subscriber is held back (--backlog) past the fault, so every message acknowledged before it
 * waits in the broker for the subscriber, and the drain waits for the restarted broker to deliver
 * them. Mosquitto's QoS 1 kill and restart are in {@link MqttEndToEndTest}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class MqttFaultsEndToEndTest {

    private static final String NATS_KILL = "no acknowledged message: the PUBACK follows JetStream's store, written "
            + "to the stream's file (not fsynced: into the page cache, which a killed process leaves behind); sessions "
            + "and consumers are in streams too. An OS crash or power loss would lose what came after the last fsync "
            + "(every 2m)";
    private static final String RABBIT_KILL = "no acknowledged message: the PUBACK waits for the publisher confirm, "
            + "which RabbitMQ sends for a persistent message in a durable queue once it is on disk (fsynced); the node "
            + "starts again on its own data, with the durable subscription queues, their bindings and messages (one "
            + "delivered but not yet acknowledged by the subscriber is delivered again)";

    @TempDir
    Path dir;

    /**
     * RabbitMQ confirms a persistent message in a durable queue once it is on disk, and nats-server
     * stores a QoS 1 message in its stream's file before the PUBACK: neither a kill nor a restart
     * loses an acknowledged one. RabbitMQ takes seconds to start again, past the schedule's end:
     * its publisher then fails every send after the fault, and what it acknowledged before arrives
     * in the drain.
     */
    @ParameterizedTest(name = "--mqtt-broker {0} --fault {1}")
    @CsvSource({"nats,kill@1s:restart-after=500ms", "nats,restart@1s", "rabbitmq,kill@1s:restart-after=500ms",
            "rabbitmq,restart@1s"})
    void qos1WithAPersistentSessionLosesNoAcknowledgedMessageToAKillOrARestart(String broker, String fault)
            throws Exception {
        JsonNode r = runAcross(fault, "--mqtt-broker", broker, "--mqtt-qos", "1");

        JsonNode d = r.get("durability");
        assertEquals(broker, d.get("broker").asText());
        assertEquals(broker.equals("nats") ? NATS_KILL : RABBIT_KILL, d.get("onKill").asText());
        assertTrue(d.get("onRestart").asText().startsWith("no acknowledged message: "), d::toString);
    }

    /**
     * On three nodes, with what each broker replicates: nats-server's MQTT streams have three
     * replicas, and with {@code mqtt.durable_queue_type=quorum} each RabbitMQ subscription's queue is a
     * quorum queue on every node; either acknowledges a message once a majority stored it. A kill of
     * node 2, where the subscriber's session and queue were made, while the producer publishes on
     * node 1, loses no acknowledged message. (RabbitMQ's default classic queue, on one node, loses
     * them: measured in docs/systems.md#mqtt, not asserted here.)
     */
    @ParameterizedTest(name = "--mqtt-broker {0} --brokers 3 {1}")
    @CsvSource({"nats,", "rabbitmq,mqtt.durable_queue_type=quorum"})
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void qos1OnAReplicatedClusterLosesNoAcknowledgedMessageToAKillOfTheSubscribersNode(String broker, String prop)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("--mqtt-broker", broker, "--brokers", "3", "--mqtt-qos", "1"));
        if (prop != null) {
            args.addAll(List.of("--broker-prop", prop));
        }
        JsonNode r = runAcross("kill@1s:node=2:restart-after=500ms", args.toArray(new String[0]));

        JsonNode d = r.get("durability");
        assertEquals(broker.equals("nats")
                ? NATS_KILL.replace("JetStream's store, written", "JetStream's store on a majority of the stream's 3 "
                        + "replicas, written")
                : "no acknowledged message to the kill of one node: each subscription's queue is a quorum queue with a "
                        + "replica on every node, and its publisher confirm, which the PUBACK waits for, comes once a "
                        + "majority of them wrote the message to disk (fsynced); another replica leads while the node is "
                        + "down, and the node catches up when it is back", d.get("onKill").asText());
        assertEquals(2, r.get("faults").get(0).get("event").get("node").asInt());
        assertTrue(d.has("cluster"), d::toString);
    }

    /**
     * QoS 2 is exactly once: across a restart with a persistent session, where Mosquitto saves its
     * sessions and handshakes in flight on the clean stop and nats-server keeps them in JetStream,
     * no acknowledged message is lost and none arrives twice, the ones Paho sends again after the
     * reconnect included.
     */
    @ParameterizedTest(name = "--mqtt-broker {0}")
    @CsvSource({"mosquitto,persistence=true", "nats,"})
    void qos2WithAPersistentSessionDeliversEachAcknowledgedMessageOnceAcrossARestart(String broker, String prop)
            throws Exception {
        // nats-server keeps MQTT in JetStream whatever it is given; Mosquitto keeps nothing by default
        JsonNode r = prop == null ? runAcross("restart@1s", "--mqtt-broker", broker, "--mqtt-qos", "2")
                : runAcross("restart@1s", "--mqtt-broker", broker, "--mqtt-qos", "2", "--broker-prop", prop);

        assertEquals(0, r.get("counts").get("duplicated").asLong(), r.get("counts")::toString);
        JsonNode d = r.get("durability");
        assertEquals(2, d.get("qos").asInt());
        assertEquals("PUBCOMP (QoS 2: exactly once, the four-way handshake)", d.get("acknowledgement").asText());
        assertEquals(broker.equals("nats")
                        ? "no acknowledged message: the server stops cleanly and starts again on its streams, with "
                                + "the sessions, their consumers and messages"
                        : "no acknowledged message: a clean stop saves mosquitto.db, with the sessions, their "
                                + "subscriptions and queued messages, and QoS 2 handshakes in flight",
                d.get("onRestart").asText());
    }

    /** e2e at 500 msg/s for 4 s across {@code fault}, asserted to lose no acknowledged message. */
    private JsonNode runAcross(String fault, String... brokerArgs) throws Exception {
        Path out = dir.resolve("out");
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "mqtt", "--mqtt-session", "persistent",
                "--rate", "500", "--duration", "4s", "--warmup", "0s", "--backlog", "1500", "--drain-timeout", "60s",
                "--fault", fault, "--output", out.toString()));
        args.addAll(List.of(brokerArgs));
        CliRun run = CliRun.of(args.toArray(new String[0]));

        assertEquals(ExitCode.OK.code(), run.exitCode, run::toString);
        JsonNode r = ResultTrees.complete(out);
        JsonNode counts = r.get("counts");
        assertEquals(2_000, counts.get("sent").asLong());
        assertTrue(counts.get("acknowledged").asLong() > 0, counts::toString);
        assertEquals(0, counts.get("acknowledgedLost").asLong(), counts::toString);
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals(fault.substring(0, fault.indexOf('@')), event.get("kind").asText());
        assertEquals("done", event.get("outcome").asText(), event::toString);
        assertTrue(event.get("endedAtSeconds").isNumber(), () -> "started again: " + event);
        assertEquals("persistent", r.get("durability").get("session").asText());
        return r;
    }
}
