package dev.msgbench.mqtt.broker;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerBinary;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * --mqtt-broker nats: bench-nats' local nats-server with its MQTT listener, and what it keeps.
 *
 * <p>nats-server keeps MQTT's state in JetStream streams of the account, in its file store: sessions
 * ($MQTT_sess), QoS 1 and 2 messages until every subscription acknowledged them ($MQTT_msgs),
 * incoming QoS 2 messages until their PUBREL ($MQTT_qos2in), outgoing PUBRELs ($MQTT_out),
 * retained messages ($MQTT_rmsgs); a QoS 1 or 2 subscription is a JetStream consumer on
 * $MQTT_msgs, removed when a clean session ends. QoS 0 goes through core NATS and is never stored.
 * QoS 2 came in nats-server 2.10.
 */
public final class NatsMqttBroker {

    /** The stream of QoS 1 and 2 messages, made by the first MQTT session (the readiness probe's). */
    static final String MESSAGES = "$MQTT_msgs";
    /** Its replicas: nats-server's default is the cluster's size up to 3; --broker-prop may set it. */
    static final String STREAM_REPLICAS = "mqtt.stream_replicas";

    private NatsMqttBroker() {
    }

    /**
     * One server with JetStream and an MQTT listener, or a JetStream cluster with one on each node
     * (MQTT's streams then have nats-server's default replicas, up to 3, or {@code mqtt.stream_replicas}
     * from --broker-prop); ready once each node accepts an MQTT session.
     */
    public static LocalNatsServer start(BrokerSpec broker, long messageSizeBytes) {
        return LocalNatsServer.start(NatsServerSpec.of(broker).withMqtt()
                .withMaxPayloadBytes(NatsServerSpec.maxPayloadFor(messageSizeBytes)));
    }

    /** The one line that refuses QoS 2 on a server before 2.10, or null when the server has it. */
    public static String qos2Refused(NatsServerBinary server) {
        return server.atLeast(2, 10) ? null
                : "--mqtt-qos 2: nats-server " + server.version() + " (" + server.path() + ") has MQTT QoS 0 and 1 only "
                        + "(QoS 2 came in 2.10); run scripts/setup, which builds a current nats-server, or give "
                        + "--mqtt-qos 0 or 1";
    }

    /**
     * What the server keeps of a run at {@code qos}: the durability entries of its result, with the
     * JetStream sync setting read back from its /jsz and the replicas of MQTT's message stream.
     */
    public static Map<String, String> keeps(LocalNatsServer server, int qos, boolean persistentSession)
            throws IOException, InterruptedException {
        int replicas = messageStreamReplicas(server);
        String stored = "file storage, " + replicasText(replicas);
        Map<String, String> keeps = new LinkedHashMap<>();
        keeps.put("messages", switch (qos) {
            case 0 -> "not stored: QoS 0 goes through core NATS";
            case 1 -> "stored in the JetStream stream " + MESSAGES + " (" + stored + ", kept until every "
                    + "subscription acknowledged it) before the PUBACK";
            default -> "stored in the JetStream stream $MQTT_qos2in (" + stored + ") before the PUBREC, "
                    + "held there until the publisher's PUBREL, then delivered through " + MESSAGES;
        });
        keeps.put("subscriptions", qos == 0 ? "core NATS subscriptions, nothing kept"
                : "a JetStream consumer per subscription, "
                        + (persistentSession ? "kept with the session ($MQTT_sess) while the client is away"
                                : "deleted when the clean session ends"));
        String sync = syncText(server.jetStreamConfig());
        keeps.put("jetstream.sync_interval", sync);
        int nodes = server.nodeCount();
        if (nodes > 1) {
            keeps.put(STREAM_REPLICAS, Integer.toString(replicas));
            keeps.put("cluster", clusterText(nodes, replicas));
        }
        // a persistent session at QoS 1 or 2; MqttSystem says what a clean session or QoS 0 loses
        keeps.put("onKill", "no acknowledged message: the " + (qos == 2 ? "PUBREC" : "PUBACK") + " follows JetStream's "
                + "store" + (replicas > 1 ? " on a majority of the stream's " + replicas + " replicas" : "")
                + ", written to the stream's file (not fsynced: into the page cache, which a killed process leaves "
                + "behind); sessions and consumers are in streams too. "
                + crashLoses(sync));
        keeps.put("onRestart", "no acknowledged message: the server stops cleanly and starts again on its streams, "
                + "with the sessions, their consumers and messages");
        keeps.put("configSource", "the nats-server config the suite wrote; the sync setting from its /jsz"
                + (nodes > 1 ? ", the replicas from the stream's config there" : ""));
        return keeps;
    }

    /** num_replicas of {@link #MESSAGES} as the first node that holds a replica reports it. */
    private static int messageStreamReplicas(LocalNatsServer server) throws IOException, InterruptedException {
        for (int node = 1; node <= server.nodeCount(); node++) {
            JsonNode detail = server.monitor(node).streamDetail(MESSAGES);
            if (!detail.isMissingNode()) {
                return detail.path("config").path("num_replicas").asInt(1);
            }
        }
        throw new IOException("no node of " + server + " reports the stream " + MESSAGES + " in its /jsz");
    }

    static String replicasText(int replicas) {
        return replicas == 1 ? "one replica" : replicas + " replicas";
    }

    /** Where a cluster keeps an MQTT client's messages, whichever node it talks to. */
    static String clusterText(int nodes, int replicas) {
        return nodes + " nodes of a JetStream cluster, each with an MQTT listener; MQTT's streams (messages, "
                + "sessions) have " + replicasText(replicas) + " (" + STREAM_REPLICAS + "), so "
                + (replicas > 1 ? "a stored message is on a majority of " + replicas + " nodes before its acknowledgement "
                        + "and a session survives the loss of a node"
                        : "a message is on one node only and is unavailable while that node is down");
    }

    /** What an OS crash or power loss would take, which a kill of the process does not. */
    static String crashLoses(String sync) {
        if (sync.equals("always")) {
            return "Each write is fsynced, so an OS crash would lose none either";
        }
        return "An OS crash or power loss would lose what came after the last fsync ("
                + (sync.startsWith("unknown") ? "sync_interval unknown" : "every " + sync) + ")";
    }

    /** "always", or the interval between background fsyncs: writes since the last one are in the page cache only. */
    static String syncText(JsonNode jsConfig) {
        if (jsConfig.path("sync_always").asBoolean(false)) {
            return "always";
        }
        JsonNode interval = jsConfig.get("sync_interval");
        return interval != null && interval.canConvertToLong()
                ? Duration.ofNanos(interval.asLong()).toString().substring(2).toLowerCase(Locale.ROOT)
                : "unknown: the server reports none";
    }
}
