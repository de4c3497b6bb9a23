package dev.msgbench.mqtt.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What result.json says nats-server's MQTT keeps, from the JetStream settings its /jsz reports. */
class NatsMqttBrokerTest {

    @Test
    void anOsCrashLosesWhatCameAfterTheLastFsync() {
        assertEquals("An OS crash or power loss would lose what came after the last fsync (every 2m)",
                NatsMqttBroker.crashLoses("2m"));
        assertEquals("Each write is fsynced, so an OS crash would lose none either", NatsMqttBroker.crashLoses("always"));
        assertEquals("An OS crash or power loss would lose what came after the last fsync (sync_interval unknown)",
                NatsMqttBroker.crashLoses("unknown: the server reports none"));
    }

    @Test
    void aClusterWithOneReplicaKeepsEachMessageOnOneNode() {
        assertEquals("3 nodes of a JetStream cluster, each with an MQTT listener; MQTT's streams (messages, sessions) "
                + "have one replica (mqtt.stream_replicas), so a message is on one node only and is unavailable while "
                + "that node is down", NatsMqttBroker.clusterText(3, 1));
    }
}
