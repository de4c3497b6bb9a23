package dev.msgbench.kafka.broker;

import java.nio.file.Path;

/**
 * Where one node of a local cluster lives: its ports, its directory and its log file.
 *
 * @param internalPort the brokers' own listener when clients must use a secured one, else 0
 */
record KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile, int internalPort) {

    /** A node of an open cluster: clients and brokers share one listener. */
    KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile) {
        this(id, port, controllerPort, dir, logFile, 0);
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
        return "127.0.0.1:" + port;
    }

    String controller() {
        return "127.0.0.1:" + controllerPort;
    }

    String internal() {
        return "127.0.0.1:" + internalPort;
    }
}
