package dev.msgbench.mqtt;

import java.io.IOException;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.mqtt.broker.LocalMosquitto;
import dev.msgbench.mqtt.broker.MosquittoBrokerSpec;
import dev.msgbench.mqtt.broker.NatsMqttBroker;
import dev.msgbench.mqtt.broker.RabbitMqttBroker;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerBinary;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import picocli.CommandLine.Option;

/**
 * MQTT 3.1.1 through Eclipse Paho against a local broker of --mqtt-broker (Mosquitto, RabbitMQ's
 * MQTT plugin or nats-server's MQTT listener, each started by its own system's launcher) or a
 * broker given with --url.
 *
 * <p>--acks has no MQTT meaning: QoS is a handshake between a client and the broker, not
 * replication (Mosquitto has no replicas), so it is its own flag, --mqtt-qos, and --acks is refused.
 */
public final class MqttTarget implements SystemTarget {

    @Option(names = "--mqtt-broker", paramLabel = "BROKER", defaultValue = "mosquitto",
            description = "MQTT: the local broker, started and stopped by the suite: mosquitto (Debian's package, with "
                    + "a mosquitto.conf the suite writes), rabbitmq (RabbitMQ with its rabbitmq_mqtt plugin: QoS 0 and "
                    + "1 only; a subscription is a queue of its own, at QoS 1 durable, auto-delete in a clean session, "
                    + "and PUBACK waits for the queues' confirm; --brokers N: the plugin on each node of a cluster, each client "
                    + "on one node) or nats (nats-server's MQTT listener: QoS 1 and 2 "
                    + "messages and sessions are kept in JetStream streams; --brokers N: a JetStream cluster with the "
                    + "listener on each node, MQTT's streams replicated on up to 3, each client on one node) "
                    + "(default: ${DEFAULT-VALUE}).")
    /* its default also where picocli does not parse this mixin: `broker mqtt` */
    String broker = MqttBroker.MOSQUITTO.label();

    @Option(names = "--mqtt-qos", paramLabel = "0|1|2", defaultValue = "1",
            description = "MQTT: the QoS of every publish and subscription, a delivery handshake between a client and "
                    + "the broker, not replication (so not --acks, which MQTT refuses): 0 nothing acknowledged, 1 "
                    + "acknowledged by PUBACK (at least once), 2 by PUBCOMP (exactly once; not on RabbitMQ) "
                    + "(default: ${DEFAULT-VALUE}).")
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

    /** Test and `broker mqtt` seam: --mqtt-broker given elsewhere than on a run's command line. */
    public void useBroker(String mqttBroker) {
        this.broker = mqttBroker;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        MqttBroker chosen = chosenBroker();
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
        if (localNodes > 1 && chosen == MqttBroker.MOSQUITTO) {
            throw new UserError(MosquittoBrokerSpec.noCluster(localNodes));
        }
        if (qos == 2) {
            String refused = qos2Refused(chosen, localNodes);
            if (refused != null) {
                throw new UserError(refused);
            }
        }
    }

    /** RabbitMQ's MQTT plugin never has QoS 2; a local nats-server before 2.10 lacks it. */
    private static String qos2Refused(MqttBroker chosen, int localNodes) {
        return switch (chosen) {
            case RABBITMQ -> RabbitMqttBroker.qos2Refused(localNodes > 0 ? RabbitMqttBroker.installedVersion() : "3.10");
            case NATS -> localNodes > 0 ? NatsMqttBroker.qos2Refused(NatsServerBinary.find()) : null;
            case MOSQUITTO -> null;
        };
    }

    private MqttBroker chosenBroker() {
        try {
            return MqttBroker.of(broker);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
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
        if (chosenBroker() != MqttBroker.MOSQUITTO) {
            return "disk faults on --mqtt-broker " + broker + " come in a later version";
        }
        return "Mosquitto writes its state to disk only every autosave_interval seconds (1800 by default) and on a "
                + "clean stop, and with persistence off (its default) never; disk faults on MQTT come in a later version";
    }

    /** TLS and a login on each of the three brokers, and to a secured broker given with --url. */
    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return switch (chosenBroker()) {
            case MOSQUITTO -> LocalMosquitto.start(MosquittoBrokerSpec.of(request.broker()));
            case RABBITMQ -> RabbitMqttBroker.start(request.broker(), request.messageSizeBytes());
            case NATS -> NatsMqttBroker.start(request.broker(), request.messageSizeBytes());
        };
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        Map<String, String> written = request.broker() instanceof LocalMosquitto local ? local.writtenSettings() : null;
        String version = request.broker() == null ? "unknown" : request.broker().version();
        MqttSession chosenSession = MqttSession.of(session);
        boolean persistent = chosenSession == MqttSession.PERSISTENT;
        Map<String, String> keeps;
        if (request.broker() instanceof LocalRabbitMq rabbit) {
            keeps = RabbitMqttBroker.keeps(rabbit, qos, persistent);
        } else if (request.broker() instanceof LocalNatsServer nats) {
            keeps = natsKeeps(nats, persistent);
        } else {
            keeps = null;
        }
        return new MqttSystem(new MqttSettings(request.url(), qos, chosenSession, version, written, chosenBroker(),
                keeps, request.security()));
    }

    private Map<String, String> natsKeeps(LocalNatsServer nats, boolean persistent) {
        try {
            return NatsMqttBroker.keeps(nats, qos, persistent);
        } catch (IOException e) {
            throw new UserError("cannot read the JetStream settings of " + nats + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while reading the JetStream settings of " + nats, e);
        }
    }
}
