package dev.msgbench.mqtt.broker;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;

/**
 * --mqtt-broker rabbitmq: bench-rabbit's local RabbitMQ with its MQTT plugin, and what it keeps.
 *
 * <p>RabbitMQ 3.10's plugin maps MQTT onto AMQP: a publish goes to the amq.topic exchange (QoS 1
 * as a persistent message, QoS 0 as a transient one), and PUBACK waits for the queues' publisher
 * confirm; each subscription is a queue of its own, mqtt-subscription-CLIENTqos1 (or qos0), from
 * which the plugin delivers with a prefetch of {@code mqtt.prefetch}. A QoS 1 subscription's queue
 * is durable, of {@code mqtt.durable_queue_type}, and auto-delete in a clean session (gone when the
 * client leaves); a persistent session's stays while the client is away, until unused for
 * {@code mqtt.subscription_ttl} (its x-expires, 1 day by default). QoS 0 queues are not durable.
 * The plugin has no QoS 2: it grants QoS 1 to a QoS 2 subscription.
 */
public final class RabbitMqttBroker {

    /** Settings whose RabbitMQ defaults are written out, so that a result records the values in effect. */
    private static final String QUEUE_TYPE = "mqtt.durable_queue_type";
    private static final String PREFETCH = "mqtt.prefetch";

    private static final String ONE_NODE_KILL = "no acknowledged message: the PUBACK waits for the publisher "
            + "confirm, which RabbitMQ sends for a persistent message in a durable queue once it is on disk (fsynced); "
            + "the node starts again on its own data, with the durable subscription queues, their bindings and "
            + "messages (one delivered but not yet acknowledged by the subscriber is delivered again)";
    /* measured, docs/systems.md#mqtt: 1,295 of 1,811 acknowledged messages lost to a kill of the subscriber's node */
    private static final String CLASSIC_CLUSTER_KILL = "acknowledged messages, when the node killed holds a "
            + "subscription's queue: a classic queue lives on one node, and while that node is down a message routed "
            + "to its queue is dropped yet acknowledged (measured), and the plugin drops a publisher whose publisher "
            + "confirm is a nack; what the queue held before the kill is on that node's disk and delivered once it is "
            + "back. A kill of a node without queues loses no acknowledged message. --broker-prop "
            + QUEUE_TYPE + "=quorum replicates each queue";
    private static final String QUORUM_CLUSTER_KILL = "no acknowledged message to the kill of one node: each "
            + "subscription's queue is a quorum queue with a replica on every node, and its publisher confirm, which "
            + "the PUBACK waits for, comes once a majority of them wrote the message to disk (fsynced); another "
            + "replica leads while the node is down, and the node catches up when it is back";

    private RabbitMqttBroker() {
    }

    /** One node with the MQTT plugin, ready once it accepts an MQTT session. */
    public static LocalRabbitMq start(BrokerSpec broker, long messageSizeBytes) {
        return LocalRabbitMq.start(spec(broker).withRoomForMessagesOf(messageSizeBytes));
    }

    /** {@code broker} with the MQTT plugin and RabbitMQ's defaults written out under the user's --broker-prop. */
    static RabbitBrokerSpec spec(BrokerSpec broker) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put(QUEUE_TYPE, "classic");
        props.put(PREFETCH, "10");
        props.putAll(broker.props());
        return RabbitBrokerSpec.of(broker.withProps(props)).withMqtt();
    }

    /** What a kill of one node loses of a persistent session's QoS 1 messages, by the nodes and the queue type. */
    static String killLoses(int nodes, String queueType) {
        if (nodes == 1) {
            return ONE_NODE_KILL;
        }
        return queueType.equals("quorum") ? QUORUM_CLUSTER_KILL : CLASSIC_CLUSTER_KILL;
    }

    /** The installed RabbitMQ's version, known before it starts, for the QoS 2 refusal. */
    public static String installedVersion() {
        return RabbitBrokerSpec.defaults().installedVersion().orElse("3.10");
    }

    /** The one line that refuses QoS 2, which no RabbitMQ MQTT plugin up to 3.13 has. */
    public static String qos2Refused(String version) {
        return "--mqtt-qos 2: RabbitMQ " + version + "'s MQTT plugin has QoS 0 and 1 only (it grants QoS 1 to a QoS 2 "
                + "subscription); give --mqtt-qos 0 or 1, or --mqtt-broker mosquitto or nats";
    }

    /**
     * What the broker keeps of a run at {@code qos} with persistent sessions or not: the durability
     * entries of its result.
     */
    public static Map<String, String> keeps(LocalRabbitMq broker, int qos, boolean persistentSession) {
        Map<String, String> conf = broker.conf();
        String queueType = conf.get(QUEUE_TYPE);
        Map<String, String> keeps = new LinkedHashMap<>();
        keeps.put("messages", qos == 0 ? "transient AMQP messages, in memory, no confirm"
                : "persistent AMQP messages (delivery mode 2) via amq.topic; PUBACK once the subscribers' queues "
                        + "confirmed them (a publisher confirm)");
        keeps.put("subscriberQueue", qos == 0
                ? "a non-durable classic queue per subscription" + (persistentSession ? ", kept while the client is away"
                        : ", deleted when the client leaves")
                : persistentSession ? "a durable " + queueType + " queue per subscription (" + QUEUE_TYPE + "), "
                        + "kept while the client is away, for mqtt.subscription_ttl (x-expires, 1 day by default)"
                : "a durable classic queue per subscription, auto-delete: deleted when the client leaves (a quorum "
                        + "queue cannot be auto-delete, so " + QUEUE_TYPE + " applies to persistent sessions only)");
        keeps.put(QUEUE_TYPE, queueType);
        keeps.put(PREFETCH, conf.get(PREFETCH));
        if (broker.nodeCount() > 1) {
            keeps.put("cluster", broker.nodeCount() + " nodes, each with the MQTT plugin; a subscription's queue is on the "
                    + "node its client connected to, and a " + queueType + " queue " + (queueType.equals("quorum")
                            ? "is replicated on every node" : "is not replicated: its messages are on that node only"));
        }
        // a persistent session at QoS 1; MqttSystem says what a clean session or QoS 0 loses
        keeps.put("onKill", killLoses(broker.nodeCount(), queueType));
        keeps.put("onRestart", "no acknowledged message: the node stops cleanly and starts again with the durable "
                + "subscription queues, their bindings and messages");
        keeps.put("configSource", "the rabbitmq.conf the suite wrote (RabbitMQ's defaults written out)");
        return keeps;
    }
}
