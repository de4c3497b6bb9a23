package dev.msgbench.kafka.broker;

import java.nio.file.Path;

/**
 * Where one node of a local cluster lives: its ports, its directory and its log file.
 *
 * @param internalPort the brokers' own listener when clients must use a secured one, else 0
 * @param host         the address every listener binds and advertises: 127.0.0.1, or its host's
 *                     under --isolate
 */
record KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile, int internalPort, String host) {

    /** A node of an open cluster: clients and brokers share one listener. */
    KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile) {
        this(id, port, controllerPort, dir, logFile, 0);
    }

    /** On loopback. */
    KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile, int internalPort) {
        this(id, port, controllerPort, dir, logFile, internalPort, "127.0.0.1");
    }

    /** How messages and process lists name it. */
    String name() {
        return "kafka node " + id;
    }

    Path serverProperties() {
        return dir.resolve("server.properties");
    }

    Path log4jConfig() {
        return dir.resolve("log4j2.xml");
    }

    Path dataDir() {
        return dir.resolve("data");
    }

    String bootstrap() {
        return host + ":" + port;
    }

    String controller() {
        return host + ":" + controllerPort;
    }

    String internal() {
        return host + ":" + internalPort;
    }
}
