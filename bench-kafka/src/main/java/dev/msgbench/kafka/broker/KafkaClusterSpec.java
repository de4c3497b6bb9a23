package dev.msgbench.kafka.broker;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What local Kafka cluster to start.
 *
 * @param broker what every local broker has: its nodes are combined broker+controller nodes, its
 *               props server properties applied last over ours, its log dir holds each node's
 *               kafka-N.log, its start timeout covers formatting, starting and the ready check
 *               together (default 90 s); its CPUs are those of the node JVMs and their storage
 *               format runs; secured, clients must use TLS and log in (SCRAM or PLAIN)
 * @param heap   -Xmx and -Xms of each node's JVM, e.g. "512m"
 */
public record KafkaClusterSpec(BrokerSpec broker, String heap) {

    public static final String DEFAULT_HEAP = "512m";
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);

    /** Ports, paths and the quorum differ on every run; letting a user set them breaks the cluster. */
    static final Set<String> RESERVED_PROPS = Set.of("process.roles", "node.id", "listeners",
            "advertised.listeners", "controller.listener.names", "inter.broker.listener.name",
            "listener.security.protocol.map", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
            "log.dirs", "log.dir");

    public KafkaClusterSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        for (Map.Entry<String, String> prop : broker.props().entrySet()) {
            if (RESERVED_PROPS.contains(prop.getKey())) {
                throw new UserError("--broker-prop " + prop.getKey() + " cannot be set: msgbench chooses it for "
                        + "every run (ports, directories, KRaft quorum); remove it");
            }
            if (prop.getKey().isBlank() || prop.getValue() == null || prop.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE on one line, got '" + prop.getKey() + "'");
            }
        }
        heap = heap == null ? DEFAULT_HEAP : heap;
        if (!heap.matches("[1-9][0-9]*[kKmMgG]?")) {
            throw new UserError("the broker heap must be a JVM size such as 512m or 2g, got '" + heap + "'");
        }
    }

    /** {@code broker} with a 512m heap. */
    public static KafkaClusterSpec of(BrokerSpec broker) {
        return new KafkaClusterSpec(broker, DEFAULT_HEAP);
    }

    /** One node, no overrides, 512m heap, logs in the temp dir, 90 s to start. */
    public static KafkaClusterSpec defaults() {
        return of(BrokerSpec.defaults());
    }

    public KafkaClusterSpec withBroker(BrokerSpec broker) {
        return new KafkaClusterSpec(broker, heap);
    }

    public KafkaClusterSpec withHeap(String heap) {
        return new KafkaClusterSpec(broker, heap);
    }
}
