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

    private NatsMqttBroker() {
    }

    /** One server with JetStream and an MQTT listener, ready once it accepts an MQTT session. */
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
     * JetStream sync setting read back from its /jsz.
     */
    public static Map<String, String> keeps(LocalNatsServer server, int qos, boolean persistentSession)
            throws IOException, InterruptedException {
        Map<String, String> keeps = new LinkedHashMap<>();
        keeps.put("messages", switch (qos) {
            case 0 -> "not stored: QoS 0 goes through core NATS";
            case 1 -> "stored in the JetStream stream $MQTT_msgs (file storage, one replica, kept until every "
                    + "subscription acknowledged it) before the PUBACK";
            default -> "stored in the JetStream stream $MQTT_qos2in (file storage, one replica) before the PUBREC, "
                    + "held there until the publisher's PUBREL, then delivered through $MQTT_msgs";
        });
        keeps.put("subscriptions", qos == 0 ? "core NATS subscriptions, nothing kept"
                : "a JetStream consumer per subscription, "
                        + (persistentSession ? "kept with the session ($MQTT_sess) while the client is away"
                                : "deleted when the clean session ends"));
        keeps.put("jetstream.sync_interval", syncText(server.jetStreamConfig()));
        keeps.put("configSource", "the nats-server config the suite wrote; the sync setting from its /jsz");
        return keeps;
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
