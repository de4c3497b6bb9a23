package dev.msgbench.kafka.broker;

import dev.msgbench.core.UserError;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.security.BrokerSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What local Kafka cluster to start.
 *
 * @param nodes        how many combined broker+controller nodes (--brokers), at least 1
 * @param brokerProps  server properties from --broker-prop, applied last over ours
 * @param heap         -Xmx and -Xms of each node's JVM, e.g. "512m"
 * @param logDir       where each node's log (kafka-N.log) goes; null: inside the temp dir, removed
 *                     with it
 * @param startTimeout how long formatting, starting and the ready check may take together
 * @param cpus         the CPUs the node JVMs (and their storage format runs) use (--broker-cpus);
 *                     null: those of this JVM
 * @param security     --secure: clients must use TLS and log in (SCRAM or PLAIN); null: an open cluster
 * @param placement    where each node runs and listens (--isolate); null: loopback, in this JVM's namespace
 */
public record KafkaClusterSpec(int nodes, Map<String, String> brokerProps, String heap, Path logDir,
                               Duration startTimeout, CpuList cpus, BrokerSecurity security, Placement placement) {

    public static final int DEFAULT_NODES = 1;
    public static final String DEFAULT_HEAP = "512m";
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);

    /** Ports, paths and the quorum differ on every run; letting a user set them breaks the cluster. */
    static final Set<String> RESERVED_PROPS = Set.of("process.roles", "node.id", "listeners",
            "advertised.listeners", "controller.listener.names", "inter.broker.listener.name",
            "listener.security.protocol.map", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
            "log.dirs", "log.dir");

    public KafkaClusterSpec {
        placement = placement == null ? Placement.LOOPBACK : placement;
        if (nodes < 1) {
            throw new UserError("--brokers must be at least 1, got " + nodes);
        }
        brokerProps = brokerProps == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(brokerProps));
        for (Map.Entry<String, String> prop : brokerProps.entrySet()) {
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
        startTimeout = startTimeout == null ? DEFAULT_START_TIMEOUT : startTimeout;
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new UserError("the broker start timeout must be positive, got " + startTimeout);
        }
    }

    /** An open cluster. */
    public KafkaClusterSpec(int nodes, Map<String, String> brokerProps, String heap, Path logDir,
                            Duration startTimeout, CpuList cpus) {
        this(nodes, brokerProps, heap, logDir, startTimeout, cpus, null, null);
    }

    /** One node, no overrides, 512m heap, logs in the temp dir, 90 s to start. */
    public static KafkaClusterSpec defaults() {
        return new KafkaClusterSpec(DEFAULT_NODES, Map.of(), DEFAULT_HEAP, null, DEFAULT_START_TIMEOUT, null);
    }

    public KafkaClusterSpec withNodes(int nodes) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    public KafkaClusterSpec withBrokerProps(Map<String, String> brokerProps) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    public KafkaClusterSpec withHeap(String heap) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    public KafkaClusterSpec withLogDir(Path logDir) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    public KafkaClusterSpec withStartTimeout(Duration startTimeout) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public KafkaClusterSpec withCpus(CpuList cpus) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    /** @param security TLS and the login clients must use, or null for an open cluster */
    public KafkaClusterSpec withSecurity(BrokerSecurity security) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }

    /** @param placement where each node runs (--isolate), or null for loopback in this JVM's namespace */
    public KafkaClusterSpec withPlacement(Placement placement) {
        return new KafkaClusterSpec(nodes, brokerProps, heap, logDir, startTimeout, cpus, security, placement);
    }
}
