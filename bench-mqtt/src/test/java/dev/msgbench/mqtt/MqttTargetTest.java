package dev.msgbench.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.mqtt.broker.NatsMqttBroker;
import dev.msgbench.nats.broker.NatsServerBinary;

/** The flags of --system mqtt, refused before a broker starts. */
class MqttTargetTest {

    private static MqttTarget target(String broker, int qos, String session) {
        MqttTarget target = new MqttTarget();
        target.broker = broker;
        target.qos = qos;
        target.session = session;
        return target;
    }

    private static String refusal(MqttTarget target, Acks acks, int nodes) {
        return assertThrows(UserError.class, () -> target.validate(acks, nodes)).getMessage();
    }

    @Test
    void eachBadFlagIsOneLineNamingIt() {
        assertEquals("--mqtt-broker must be mosquitto, rabbitmq or nats, got 'emqx'",
                refusal(target("emqx", 1, "clean"), null, 1));
        assertEquals("--mqtt-qos must be 0, 1 or 2, got -1", refusal(target("mosquitto", -1, "clean"), null, 1));
        assertEquals("--acks 1: MQTT has no acks, its QoS is a delivery handshake, not replication; give --mqtt-qos 0, "
                + "1 or 2 instead", refusal(target("mosquitto", 1, "clean"), Acks.BROKER, 1));
        assertEquals("--brokers 3: Mosquitto has no cluster, a local MQTT broker is one node; give --brokers 1",
                refusal(target("mosquitto", 1, "clean"), null, 3));
    }

    @Test
    void natsAndRabbitmqRunAClusterAndRabbitmqHasNoQos2() {
        target("nats", 1, "persistent").validate(null, 3);
        target("rabbitmq", 1, "persistent").validate(null, 3);
        assertEquals("--mqtt-qos 2: RabbitMQ 3.10's MQTT plugin has QoS 0 and 1 only (it grants QoS 1 to a QoS 2 "
                + "subscription); give --mqtt-qos 0 or 1, or --mqtt-broker mosquitto or nats",
                refusal(target("rabbitmq", 2, "clean"), null, 0), "with --url the version is not known");
    }

    @Test
    void aNatsServerBefore210HasNoMqttQos2() {
        NatsServerBinary debian = new NatsServerBinary(Path.of("/usr/sbin/nats-server"), "2.9.10");
        assertEquals("--mqtt-qos 2: nats-server 2.9.10 (/usr/sbin/nats-server) has MQTT QoS 0 and 1 only (QoS 2 came "
                + "in 2.10); run scripts/setup, which builds a current nats-server, or give --mqtt-qos 0 or 1",
                NatsMqttBroker.qos2Refused(debian));
        assertNull(NatsMqttBroker.qos2Refused(new NatsServerBinary(Path.of("/go/bin/nats-server"), "2.10.0")));
    }

    @Test
    void onlyQueuedMessagesAreKeptForLateSubscribers() {
        assertTrue(target("mosquitto", 1, "persistent").retainsMessages());
        assertTrue(target("mosquitto", 2, "persistent").retainsMessages());
        assertFalse(target("mosquitto", 0, "persistent").retainsMessages(), "QoS 0 is never queued");
        assertFalse(target("mosquitto", 2, "clean").retainsMessages(), "a clean session is forgotten");
    }
}
