package dev.msgbench.mqtt;

import java.util.List;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.mqtt.broker.LocalMosquitto;
import dev.msgbench.mqtt.broker.MosquittoBrokerSpec;
import picocli.CommandLine.Option;

/**
 * MQTT 3.1.1 through Eclipse Paho against a local Mosquitto (--mqtt-broker mosquitto, the only
 * broker of this first increment) or a broker given with --url.
 *
 * <p>--acks has no MQTT meaning: QoS is a handshake between a client and the broker, not
 * replication (Mosquitto has no replicas), so it is its own flag, --mqtt-qos, and --acks is refused.
 */
public final class MqttTarget implements SystemTarget {

    static final List<String> LATER_BROKERS = List.of("rabbitmq", "nats");

    @Option(names = "--mqtt-broker", paramLabel = "BROKER", defaultValue = "mosquitto",
            description = "MQTT: the local broker: mosquitto (Debian's package, started by the suite with a config it "
                    + "writes; rabbitmq and nats come later) (default: ${DEFAULT-VALUE}).")
    String broker;

    @Option(names = "--mqtt-qos", paramLabel = "0|1|2", defaultValue = "1",
            description = "MQTT: the QoS of every publish and subscription, a delivery handshake between a client and "
                    + "the broker, not replication (so not --acks, which MQTT refuses): 0 nothing acknowledged, 1 "
                    + "acknowledged by PUBACK (at least once), 2 by PUBCOMP (exactly once) (default: ${DEFAULT-VALUE}).")
    int qos;

    @Option(names = "--mqtt-session", paramLabel = "clean|persistent", defaultValue = "clean",
            description = "MQTT: clean sessions, forgotten when a client leaves, or persistent ones, in which the broker "
                    + "queues QoS 1 and 2 messages for a subscriber that is away (what --backlog needs) "
                    + "(default: ${DEFAULT-VALUE}).")
    String session;

    @Override
    public String name() {
        return MqttSystem.NAME;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        if (LATER_BROKERS.contains(broker)) {
            throw new UserError("--mqtt-broker " + broker + ": not yet; this version of --system mqtt runs "
                    + "--mqtt-broker mosquitto only");
        }
        if (!broker.equals("mosquitto")) {
            throw new UserError("--mqtt-broker must be mosquitto, got '" + broker + "'");
        }
        if (qos < 0 || qos > 2) {
            throw new UserError("--mqtt-qos must be 0, 1 or 2, got " + qos);
        }
        try {
            MqttSession.of(session);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (acks != null) {
            throw new UserError("--acks " + acks.flagValue() + ": MQTT has no acks, its QoS is a delivery handshake, "
                    + "not replication; give --mqtt-qos 0, 1 or 2 instead");
        }
        if (localNodes > 1) {
            throw new UserError(MosquittoBrokerSpec.noCluster(localNodes));
        }
    }

    /** True with persistent sessions at QoS 1 or 2, the only messages the broker queues ({@link MqttSystem#retainsMessages}). */
    @Override
    public boolean retainsMessages() {
        return MqttSession.of(session) == MqttSession.PERSISTENT && qos >= 1;
    }

    /** Mosquitto writes its state only every autosave_interval seconds and at a clean stop, and by default not at all. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return "Mosquitto writes its state to disk only every autosave_interval seconds (1800 by default) and on a "
                + "clean stop, and with persistence off (its default) never; disk faults on MQTT come in a later version";
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalMosquitto.start(MosquittoBrokerSpec.of(request.broker()));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        Map<String, String> written = request.broker() instanceof LocalMosquitto local ? local.writtenSettings() : null;
        String version = request.broker() == null ? "unknown" : request.broker().version();
        return new MqttSystem(new MqttSettings(request.url(), qos, MqttSession.of(session), version, written));
    }
}
