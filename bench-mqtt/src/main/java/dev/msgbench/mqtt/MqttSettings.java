package dev.msgbench.mqtt;

import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.TlsFiles;

/**
 * How the adapter runs.
 *
 * @param url            the broker, {@code mqtt://host:port} or {@code mqtts://} for TLS (or Paho's
 *                       own {@code tcp://} and {@code ssl://})
 * @param qos            0, 1 or 2, for publishing and subscribing
 * @param session        clean or persistent sessions, for every client of the run
 * @param brokerVersion  the broker's version as its launcher read it, or "unknown" with --url
 * @param writtenConfig  the settings of the config the suite wrote for a local Mosquitto, or null
 *                       for a broker given with --url, whose settings no one can read
 * @param broker         which broker it is (--mqtt-broker)
 * @param brokerKeeps    for a local RabbitMQ or nats-server: what it keeps of the run, as the
 *                       durability entries of the result; null for Mosquitto (its written config
 *                       says it) and for a broker given with --url
 * @param security       TLS and the login: a secured local broker's own, or --ca, --user and
 *                       --password-file for one given with --url
 */
public record MqttSettings(String url, int qos, MqttSession session, String brokerVersion,
                           Map<String, String> writtenConfig, MqttBroker broker, Map<String, String> brokerKeeps,
                           ClientSecurity security) {

    public MqttSettings {
        security = security == null ? ClientSecurity.NONE : security;
    }

    /** Mosquitto's, open. */
    public MqttSettings(String url, int qos, MqttSession session, String brokerVersion,
                        Map<String, String> writtenConfig) {
        this(url, qos, session, brokerVersion, writtenConfig, MqttBroker.MOSQUITTO, null, ClientSecurity.NONE);
    }

    /** The nodes {@link #url} names, separated by commas: a local RabbitMQ cluster's each node. */
    int nodes() {
        return url.split(",").length;
    }

    /**
     * These settings for a client that talks to one node: the {@code index}-th of {@link #url}'s,
     * counted round (MQTT 3.1.1 has no cluster, so each client has one node).
     */
    MqttSettings onNode(int index) {
        String[] urls = url.split(",");
        return urls.length == 1 ? this : new MqttSettings(urls[Math.floorMod(index, urls.length)].strip(), qos, session,
                brokerVersion, writtenConfig, broker, brokerKeeps, security);
    }

    /** The URL as Paho takes it: tcp://host:port, or ssl://host:port for TLS ({@link #usesTls}). */
    String pahoUrl() {
        String address = url.replaceFirst("(?i)^(mqtts?|tcp|ssl)://", "");
        return address.equals(url) ? url : (usesTls() ? "ssl://" : "tcp://") + address;
    }

    /** TLS by the URL's scheme (mqtts://, ssl://), or because --ca or a client certificate was given. */
    boolean usesTls() {
        String scheme = url.toLowerCase(Locale.ROOT);
        return security.usesTls() || scheme.startsWith("mqtts://") || scheme.startsWith("ssl://");
    }

    /** What the client trusts: --ca's authority (or a secured local broker's), else the JVM's. */
    TlsFiles tls() {
        return security.usesTls() ? security.tls() : TlsFiles.DEFAULT_TRUST;
    }

    /** Whether the broker keeps messages for a subscriber that is away: QoS 1 or 2 in a persistent session. */
    boolean queuesForAbsentSubscribers() {
        return session == MqttSession.PERSISTENT && qos >= 1;
    }
}
