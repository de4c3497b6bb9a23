package dev.msgbench.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** What result.json says a kill or a restart of the broker loses, before any broker runs. */
class FaultLossTest {

    @Test
    void onlyAPersistentSessionAtQos1Or2DependsOnTheBroker() {
        assertNull(SessionFaults.losesWhateverTheBroker(1, MqttSession.PERSISTENT));
        assertNull(SessionFaults.losesWhateverTheBroker(2, MqttSession.PERSISTENT));
        assertEquals("every message not yet delivered: QoS 0 is never stored or queued for a client that is away",
                SessionFaults.losesWhateverTheBroker(0, MqttSession.PERSISTENT));
        assertEquals("what was queued for a subscriber: it connects again with a clean session, which drops the old "
                + "session and its queue (MQTT 3.1.1), and what is published before it subscribes again reaches no "
                + "one", SessionFaults.losesWhateverTheBroker(1, MqttSession.CLEAN));
    }

    @Test
    void mosquittoKeepsAcrossARestartOnlyWithPersistence() {
        assertEquals("no acknowledged message: a clean stop saves mosquitto.db, with the sessions, their subscriptions "
                + "and queued messages, and QoS 2 handshakes in flight",
                MosquittoFaults.restartLoses(Map.of("persistence", "true")));
        assertEquals("everything: persistence is off, a restarted Mosquitto has no session and no queued message",
                MosquittoFaults.restartLoses(Map.of("persistence", "false")));
        assertEquals("everything: persistence is off, a restarted Mosquitto has no session and no queued message",
                MosquittoFaults.killLoses(Map.of("persistence", "false")));
    }
}
