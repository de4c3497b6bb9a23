package dev.msgbench.mqtt;

import java.util.Map;

/**
 * How the adapter runs.
 *
 * @param url            the broker, {@code mqtt://host:port} (or Paho's own {@code tcp://})
 * @param qos            0, 1 or 2, for publishing and subscribing
 * @param session        clean or persistent sessions, for every client of the run
 * @param brokerVersion  the broker's version as its launcher read it, or "unknown" with --url
 * @param writtenConfig  the settings of the config the suite wrote for a local Mosquitto, or null
 *                       for a broker given with --url, whose settings no one can read
 * @param broker         which broker it is (--mqtt-broker)
 * @param brokerKeeps    for a local RabbitMQ or nats-server: what it keeps of the run, as the
 *                       durability entries of the result; null for Mosquitto (its written config
 *                       says it) and for a broker given with --url
 */
public record MqttSettings(String url, int qos, MqttSession session, String brokerVersion,
                           Map<String, String> writtenConfig, MqttBroker broker, Map<String, String> brokerKeeps) {

    /** Mosquitto's. */
    public MqttSettings(String url, int qos, MqttSession session, String brokerVersion,
                        Map<String, String> writtenConfig) {
        this(url, qos, session, brokerVersion, writtenConfig, MqttBroker.MOSQUITTO, null);
    }

    /** The URL as Paho takes it: tcp://host:port. */
    String pahoUrl() {
        return url.startsWith("mqtt://") ? "tcp://" + url.substring("mqtt://".length()) : url;
    }

    /** Whether the broker keeps messages for a subscriber that is away: QoS 1 or 2 in a persistent session. */
    boolean queuesForAbsentSubscribers() {
        return session == MqttSession.PERSISTENT && qos >= 1;
    }
}
