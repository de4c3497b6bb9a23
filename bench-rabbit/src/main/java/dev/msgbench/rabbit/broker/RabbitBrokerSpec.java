package dev.msgbench.rabbit.broker;

import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What local RabbitMQ node to start.
 *
 * @param nodes        nodes (--brokers): one node, or a cluster of that many on this machine
 * @param brokerProps  rabbitmq.conf lines from --broker-prop, written after ours
 * @param logDir       where the node's output (rabbitmq-1.log) goes; null: inside the temp dir,
 *                     removed with it
 * @param startTimeout how long the start and the ready check may take together; start-up is CPU
 *                     bound: one node takes 5 to 10 s on two busy cores, three together 20 to 40 s
 * @param installDir   where Debian's rabbitmq-server package put its scripts
 * @param cpus         the CPUs epmd and the node (and every process they start) run on
 *                     (--broker-cpus); null: those of this JVM
 * @param security     TLS and the login the node demands (--secure); null: plain AMQP, guest over
 *                     loopback
 * @param placement    where each node runs and listens (--isolate); null: loopback, in this JVM's
 *                     namespace
 */
public record RabbitBrokerSpec(int nodes, Map<String, String> brokerProps, Path logDir, Duration startTimeout,
                               Path installDir, CpuList cpus, BrokerSecurity security, Placement placement) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);
    public static final Path DEFAULT_INSTALL_DIR = Path.of("/usr/lib/rabbitmq/bin");
    private static final long MESSAGE_SIZE_MARGIN_BYTES = 64 * 1024;

    public RabbitBrokerSpec {
        checkNodes(nodes);
        brokerProps = brokerProps == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(brokerProps));
        RabbitConf.checkUserProps(brokerProps);
        startTimeout = startTimeout == null ? DEFAULT_START_TIMEOUT : startTimeout;
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new UserError("the broker start timeout must be positive, got " + startTimeout);
        }
        installDir = installDir == null ? DEFAULT_INSTALL_DIR : installDir;
        placement = placement == null ? Placement.LOOPBACK : placement;
    }

    private static void checkNodes(int nodes) {
        if (nodes < 1) {
            throw new UserError("--brokers must be at least 1, got " + nodes);
        }
    }

    /** One node, no overrides, logs in the temp dir, 120 s to start, Debian's install. */
    public static RabbitBrokerSpec defaults() {
        return new RabbitBrokerSpec(1, Map.of(), null, DEFAULT_START_TIMEOUT, DEFAULT_INSTALL_DIR, null, null, null);
    }

    public RabbitBrokerSpec withNodes(int nodes) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    public RabbitBrokerSpec withBrokerProps(Map<String, String> brokerProps) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    public RabbitBrokerSpec withLogDir(Path logDir) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    public RabbitBrokerSpec withStartTimeout(Duration startTimeout) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    public RabbitBrokerSpec withInstallDir(Path installDir) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public RabbitBrokerSpec withCpus(CpuList cpus) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    /** @param security what the node demands, or null for an open node */
    public RabbitBrokerSpec withSecurity(BrokerSecurity security) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    /** @param placement where each node runs (--isolate), or null for loopback in this JVM's namespace */
    public RabbitBrokerSpec withPlacement(Placement placement) {
        return new RabbitBrokerSpec(nodes, brokerProps, logDir, startTimeout, installDir, cpus, security, placement);
    }

    /**
     * Raises max_message_size when a message of {@code sizeBytes} (plus a margin) would not fit
     * RabbitMQ's default; a value the user set wins. A size limit, not a performance setting.
     */
    public RabbitBrokerSpec withRoomForMessagesOf(long sizeBytes) {
        long needed = Math.min(sizeBytes + MESSAGE_SIZE_MARGIN_BYTES, RabbitConf.LIMIT_MAX_MESSAGE_BYTES);
        if (needed <= RabbitConf.DEFAULT_MAX_MESSAGE_BYTES || brokerProps.containsKey(RabbitConf.MAX_MESSAGE_SIZE)) {
            return this;
        }
        Map<String, String> props = new LinkedHashMap<>(brokerProps);
        props.put(RabbitConf.MAX_MESSAGE_SIZE, Long.toString(needed));
        return withBrokerProps(props);
    }

    Path serverScript() {
        return installDir.resolve("rabbitmq-server");
    }

    Path ctlScript() {
        return installDir.resolve("rabbitmqctl");
    }
}
