package dev.msgbench.kafka.broker;

import java.nio.file.Path;

/** Where one node of a local cluster lives: its ports, its directory and its log file. */
record KafkaNode(int id, int port, int controllerPort, Path dir, Path logFile) {

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
}
