package dev.msgbench.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;

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
        assertEquals("--mqtt-broker nats: not yet; this version of --system mqtt runs --mqtt-broker mosquitto only",
                refusal(target("nats", 1, "clean"), null, 1));
        assertEquals("--mqtt-broker must be mosquitto, got 'emqx'", refusal(target("emqx", 1, "clean"), null, 1));
        assertEquals("--mqtt-qos must be 0, 1 or 2, got -1", refusal(target("mosquitto", -1, "clean"), null, 1));
        assertEquals("--acks 1: MQTT has no acks, its QoS is a delivery handshake, not replication; give --mqtt-qos 0, "
                + "1 or 2 instead", refusal(target("mosquitto", 1, "clean"), Acks.BROKER, 1));
        assertEquals("--brokers 3: Mosquitto has no cluster, a local MQTT broker is one node; give --brokers 1",
                refusal(target("mosquitto", 1, "clean"), null, 3));
    }

    @Test
    void onlyQueuedMessagesAreKeptForLateSubscribers() {
        assertTrue(target("mosquitto", 1, "persistent").retainsMessages());
        assertTrue(target("mosquitto", 2, "persistent").retainsMessages());
        assertFalse(target("mosquitto", 0, "persistent").retainsMessages(), "QoS 0 is never queued");
        assertFalse(target("mosquitto", 2, "clean").retainsMessages(), "a clean session is forgotten");
    }
}
