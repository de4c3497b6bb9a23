package dev.msgbench.nats.broker;

import java.nio.file.Path;

/**
 * One server of a local NATS cluster, as its config and logs name it.
 *
 * @param id          from 1
 * @param clientPort  for clients
 * @param monitorPort HTTP monitoring (/healthz, /jsz)
 * @param clusterPort routes between servers; 0 for a single server
 * @param dir         its config and JetStream store
 * @param host        the address it listens on: 127.0.0.1, or its host's under --isolate
 * @param mqttPort    MQTT clients'; 0 without an MQTT listener
 */
record NatsNode(int id, int clientPort, int monitorPort, int clusterPort, Path dir, Path logFile, String host,
                int mqttPort) {

    /** On loopback, without MQTT. */
    NatsNode(int id, int clientPort, int monitorPort, int clusterPort, Path dir, Path logFile) {
        this(id, clientPort, monitorPort, clusterPort, dir, logFile, "127.0.0.1", 0);
    }

    static final String SERVER_NAME_PREFIX = "msgbench-nats-";

    String name() {
        return "nats node " + id;
    }

    String serverName() {
        return SERVER_NAME_PREFIX + id;
    }

    /** @param scheme nats, or tls for a server that demands TLS */
    String url(String scheme) {
        return scheme + "://" + host + ":" + clientPort;
    }

    /** @param scheme mqtt, or mqtts for a listener that demands TLS: {@code SCHEME://HOST:PORT} of its MQTT listener */
    String mqttUrl(String scheme) {
        return scheme + "://" + host + ":" + mqttPort;
    }

    ServerMonitor monitor() {
        return new ServerMonitor(host, monitorPort);
    }

    Path configFile() {
        return dir.resolve("nats.conf");
    }

    Path storeDir() {
        return dir.resolve("store");
    }
}
