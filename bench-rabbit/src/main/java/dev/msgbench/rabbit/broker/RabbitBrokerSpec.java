package dev.msgbench.rabbit.broker;

import dev.msgbench.core.broker.BrokerSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * @param installDir where a rabbitmq-server package put its scripts: Debian's by default, or a tree
 *                   unpacked elsewhere (scripts/rabbitmq-trixie's, RabbitMQ 4.0), whose Erlang is
 *                   found next to it ({@link #erlangBin})
 * @param plugins    the plugins each node enables (its enabled_plugins file), none by default; with
 *                   {@link #STREAM_PLUGIN} each node also listens for the stream protocol on a port of
 *                   its own, and is ready only once that port answers; likewise with
 *                   {@link #MQTT_PLUGIN} for MQTT
 */
public record RabbitBrokerSpec(BrokerSpec broker, Path installDir, List<String> plugins) {

    /** RabbitMQ Streams' binary protocol, shipped with rabbitmq-server since 3.9. */
    public static final String STREAM_PLUGIN = "rabbitmq_stream";

    /** RabbitMQ's MQTT 3.1.1 listener, shipped with rabbitmq-server. */
    public static final String MQTT_PLUGIN = "rabbitmq_mqtt";

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);
    public static final Path DEFAULT_INSTALL_DIR = Path.of("/usr/lib/rabbitmq/bin");
    /** Where scripts/rabbitmq-trixie unpacks Debian 13's RabbitMQ 4.0 (with its Erlang 27): its scripts. */
    public static final Path TRIXIE_INSTALL_DIR = Path.of(System.getProperty("user.home"), ".cache", "msgbench",
            "rabbitmq-trixie", "usr", "lib", "rabbitmq", "bin");
    private static final long MESSAGE_SIZE_MARGIN_BYTES = 64 * 1024;
    private static final Pattern INSTALLED_VERSION = Pattern.compile("rabbitmq_server-(\\d+\\.\\d+\\.\\d+)/");

    public RabbitBrokerSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        RabbitConf.checkUserProps(broker.props());
        installDir = installDir == null ? DEFAULT_INSTALL_DIR : installDir;
        plugins = plugins == null ? List.of() : List.copyOf(plugins);
        for (String plugin : plugins) {
            // it goes into an Erlang term, [plugin, ...].
            if (!plugin.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException("not a RabbitMQ plugin name: '" + plugin + "'");
            }
        }
    }

    /** No plugins. */
    public RabbitBrokerSpec(BrokerSpec broker, Path installDir) {
        this(broker, installDir, List.of());
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
        return new RabbitBrokerSpec(broker, installDir, plugins);
    }

    public RabbitBrokerSpec withInstallDir(Path installDir) {
        return new RabbitBrokerSpec(broker, installDir, plugins);
    }

    /** Each node with the stream plugin and a stream port: what RabbitMQ Streams' clients need. */
    public RabbitBrokerSpec withStreams() {
        return plugins.contains(STREAM_PLUGIN) ? this
                : new RabbitBrokerSpec(broker, installDir, concat(plugins, STREAM_PLUGIN));
    }

    public boolean streams() {
        return plugins.contains(STREAM_PLUGIN);
    }

    /** Each node with the MQTT plugin and an MQTT port, where MQTT clients log in as guest over loopback. */
    public RabbitBrokerSpec withMqtt() {
        return plugins.contains(MQTT_PLUGIN) ? this
                : new RabbitBrokerSpec(broker, installDir, concat(plugins, MQTT_PLUGIN));
    }

    public boolean mqtt() {
        return plugins.contains(MQTT_PLUGIN);
    }

    private static List<String> concat(List<String> list, String more) {
        List<String> all = new ArrayList<>(list);
        all.add(more);
        return all;
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

    /**
     * The version of the installed rabbitmq-server, from the directory its script links into
     * (Debian's {@code /usr/lib/rabbitmq/lib/rabbitmq_server-3.10.8}), known before any node starts;
     * empty when it is not installed there.
     */
    public Optional<String> installedVersion() {
        try {
            Matcher m = INSTALLED_VERSION.matcher(serverScript().toRealPath().toString());
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The bin directory of the Erlang that comes with the install ({@code ../../erlang/bin} of its
     * scripts, as in Debian's layout), which the scripts find {@code erl} and {@code escript} in and
     * whose epmd the nodes use; null when there is none there, and PATH's Erlang serves.
     */
    Path erlangBin() {
        Path bin = installDir.toAbsolutePath().resolve("../../erlang/bin").normalize();
        return Files.isExecutable(bin.resolve("erl")) ? bin : null;
    }

    Path serverScript() {
        return installDir.resolve("rabbitmq-server");
    }

    Path ctlScript() {
        return installDir.resolve("rabbitmqctl");
    }
}
