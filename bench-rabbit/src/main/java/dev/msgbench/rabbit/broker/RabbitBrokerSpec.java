package dev.msgbench.rabbit.broker;

import dev.msgbench.core.broker.BrokerSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What local RabbitMQ node to start.
 *
 * @param broker     what every local broker has: one node, or a cluster of that many on this
 *                   machine; its props are rabbitmq.conf lines, written after ours; its log dir
 *                   holds the node's output (rabbitmq-1.log); its start timeout covers the start
 *                   and the ready check together (default 120 s, since start-up is CPU bound: one
 *                   node takes 5 to 10 s on two busy cores, three together 20 to 40 s); its CPUs
 *                   are those epmd and the node (and every process they start) run on; without
 *                   security the node speaks plain AMQP and lets guest in over loopback
 * @param installDir where Debian's rabbitmq-server package put its scripts
 */
public record RabbitBrokerSpec(BrokerSpec broker, Path installDir) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);
    public static final Path DEFAULT_INSTALL_DIR = Path.of("/usr/lib/rabbitmq/bin");
    private static final long MESSAGE_SIZE_MARGIN_BYTES = 64 * 1024;

    public RabbitBrokerSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        RabbitConf.checkUserProps(broker.props());
        installDir = installDir == null ? DEFAULT_INSTALL_DIR : installDir;
    }

    /** {@code broker} from Debian's install. */
    public static RabbitBrokerSpec of(BrokerSpec broker) {
        return new RabbitBrokerSpec(broker, DEFAULT_INSTALL_DIR);
    }

    /** One node, no overrides, logs in the temp dir, 120 s to start, Debian's install. */
    public static RabbitBrokerSpec defaults() {
        return of(BrokerSpec.defaults());
    }

    public RabbitBrokerSpec withBroker(BrokerSpec broker) {
        return new RabbitBrokerSpec(broker, installDir);
    }

    public RabbitBrokerSpec withInstallDir(Path installDir) {
        return new RabbitBrokerSpec(broker, installDir);
    }

    /**
     * Raises max_message_size when a message of {@code sizeBytes} (plus a margin) would not fit
     * RabbitMQ's default; a value the user set wins. A size limit, not a performance setting.
     */
    public RabbitBrokerSpec withRoomForMessagesOf(long sizeBytes) {
        long needed = Math.min(sizeBytes + MESSAGE_SIZE_MARGIN_BYTES, RabbitConf.LIMIT_MAX_MESSAGE_BYTES);
        if (needed <= RabbitConf.DEFAULT_MAX_MESSAGE_BYTES || broker.props().containsKey(RabbitConf.MAX_MESSAGE_SIZE)) {
            return this;
        }
        Map<String, String> props = new LinkedHashMap<>(broker.props());
        props.put(RabbitConf.MAX_MESSAGE_SIZE, Long.toString(needed));
        return withBroker(broker.withProps(props));
    }

    Path serverScript() {
        return installDir.resolve("rabbitmq-server");
    }

    Path ctlScript() {
        return installDir.resolve("rabbitmqctl");
    }
}
