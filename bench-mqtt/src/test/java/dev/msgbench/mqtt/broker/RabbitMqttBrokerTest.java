package dev.msgbench.mqtt.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What result.json says a kill of a RabbitMQ node loses, by the queue type of the subscriptions. */
class RabbitMqttBrokerTest {

    @Test
    void onAClusterAClassicQueuesNodeLosesAcknowledgedMessagesAndAQuorumQueueNone() {
        assertEquals("acknowledged messages, when the node killed holds a subscription's queue: a classic queue lives "
                + "on one node, and while that node is down a message routed to its queue is dropped yet acknowledged "
                + "(measured), and the plugin drops a publisher whose publisher confirm is a nack; what the queue held "
                + "before the kill is on that node's disk and delivered once it is back. A kill of a node without "
                + "queues loses no acknowledged message. --broker-prop mqtt.durable_queue_type=quorum replicates each "
                + "queue", RabbitMqttBroker.killLoses(3, "classic"));
        assertTrue(RabbitMqttBroker.killLoses(3, "quorum").startsWith("no acknowledged message to the kill of one node: "));
        assertTrue(RabbitMqttBroker.killLoses(1, "classic").startsWith("no acknowledged message: the PUBACK waits"));
        assertEquals(RabbitMqttBroker.killLoses(1, "classic"), RabbitMqttBroker.killLoses(1, "quorum"),
                "one node: the queue is there whatever its type");
    }
}
