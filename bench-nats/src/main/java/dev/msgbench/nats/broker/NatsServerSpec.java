package dev.msgbench.nats.broker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;

/**
 * What local nats-server (or cluster of them) to start.
 *
 * @param broker          what every local broker has: more than one node forms a cluster with
 *                        routes; its props are server config entries, written last over ours,
 *                        where a dotted key goes into a block: {@code jetstream.sync_interval=always}
 *                        becomes {@code jetstream { sync_interval: always }}, values written as
 *                        given, in nats-server's config syntax; its log dir holds each server's
 *                        nats-N.log; its start timeout covers starting and the ready checks
 *                        together (default 30 s)
 * @param jetStream       whether JetStream is enabled (-js)
 * @param maxPayloadBytes the server's max_payload: a size limit, raised so that large messages fit
 * @param binary          the server to run; null: {@link NatsServerBinary#find()}
 * @param mqtt            whether each server also listens for MQTT 3.1.1 (its {@code mqtt} block,
 *                        on a port of its own), which needs JetStream: MQTT sessions, QoS 1 and 2
 *                        messages and retained ones are kept in JetStream streams
 */
public record NatsServerSpec(BrokerSpec broker, boolean jetStream, long maxPayloadBytes, NatsServerBinary binary,
                             boolean mqtt) {

    /** Holds a 1 MiB message and its headers with room to spare; nats-server warns above 8 MB. */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 8L << 20;
    /** nats-server refuses a larger max_payload (and max_pending defaults to this). */
    public static final long MAX_PAYLOAD_LIMIT_BYTES = 64L << 20;
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    /** Ports, paths and cluster membership differ on every run; a user's value would break them. */
    static final Set<String> RESERVED = Set.of("listen", "host", "net", "port", "http", "http_port", "monitor_port",
            "https", "https_port", "server_name", "cluster", "routes", "log_file", "pid_file", "ports_file_dir",
            "store_dir", "jetstream.store_dir", "mqtt.listen", "mqtt.host", "mqtt.port");

    /** What --secure writes into the config; a user's value would make a second, conflicting block. */
    static final Set<String> SECURED = Set.of("tls", "authorization", "accounts", "no_auth_user", "mqtt.tls",
            "mqtt.authorization", "mqtt.no_auth_user");

    public NatsServerSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        for (Map.Entry<String, String> prop : broker.props().entrySet()) {
            String key = prop.getKey();
            if (key.isBlank() || prop.getValue() == null || prop.getValue().contains("\n")
                    || !key.matches("[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*")) {
                throw new UserError("--broker-prop must be KEY=VALUE on one line, KEY in nats-server's config "
                        + "(block.key for a block), got '" + key + "'");
            }
            if (RESERVED.contains(key) || key.startsWith("cluster.")) {
                throw new UserError("--broker-prop " + key + " cannot be set: msgbench chooses it for every run "
                        + "(ports, directories, cluster routes); remove it");
            }
            if (broker.security() != null
                    && (SECURED.contains(key) || SECURED.stream().anyMatch(k -> key.startsWith(k + ".")))) {
                throw new UserError("--broker-prop " + key + " cannot be set with --secure: msgbench configures the "
                        + "server's TLS and login for it; remove it");
            }
            if (!jetStream && (key.equals("jetstream") || key.startsWith("jetstream."))) {
                throw new UserError("--broker-prop " + key + " configures JetStream, which this server runs without; "
                        + "use --system jetstream");
            }
        }
        if (maxPayloadBytes < 1 || maxPayloadBytes > MAX_PAYLOAD_LIMIT_BYTES) {
            throw new IllegalArgumentException("max_payload must be 1 B to 64 MiB, got " + maxPayloadBytes);
        }
        if (mqtt && !jetStream) {
            throw new IllegalArgumentException("nats-server's MQTT listener needs JetStream");
        }
    }

    /** Without an MQTT listener. */
    public NatsServerSpec(BrokerSpec broker, boolean jetStream, long maxPayloadBytes, NatsServerBinary binary) {
        this(broker, jetStream, maxPayloadBytes, binary, false);
    }

    /** Room for a message's headers and protocol line beyond its payload. */
    static final long PAYLOAD_MARGIN_BYTES = 64 * 1024;
    public static final String SYNC_PROP = "jetstream.sync_interval";

    /** A max_payload that holds messages of {@code messageSizeBytes}: 8 MB, or more for larger messages. */
    public static long maxPayloadFor(long messageSizeBytes) {
        return Math.min(MAX_PAYLOAD_LIMIT_BYTES, Math.max(DEFAULT_MAX_PAYLOAD_BYTES, messageSizeBytes + PAYLOAD_MARGIN_BYTES));
    }

    /**
     * Servers before 2.10 reject jetstream.sync_interval as an unknown field.
     *
     * @param origin the flag that asked for it, for the message
     */
    public static void requireSyncSupport(NatsServerBinary binary, String origin) {
        if (!binary.atLeast(2, 10)) {
            throw new UserError(origin + " needs nats-server 2.10 or newer, but " + binary.path() + " is "
                    + binary.version() + ": run scripts/setup where Go is installed (it builds a current server "
                    + "into ~/go/bin), set " + NatsServerBinary.ENV + " to a newer nats-server, or pass --url "
                    + "to a 2.10+ server");
        }
    }

    /** {@code broker} with core NATS only, 8 MB max_payload, nats-server from {@link NatsServerBinary#find()}. */
    public static NatsServerSpec of(BrokerSpec broker) {
        return new NatsServerSpec(broker, false, DEFAULT_MAX_PAYLOAD_BYTES, null);
    }

    /** One server, core NATS only, no overrides, 8 MB max_payload, logs in the temp dir. */
    public static NatsServerSpec defaults() {
        return of(BrokerSpec.defaults());
    }

    public NatsServerSpec withBroker(BrokerSpec broker) {
        return new NatsServerSpec(broker, jetStream, maxPayloadBytes, binary, mqtt);
    }

    public NatsServerSpec withJetStream(boolean enabled) {
        return new NatsServerSpec(broker, enabled, maxPayloadBytes, binary, mqtt && enabled);
    }

    public NatsServerSpec withMaxPayloadBytes(long bytes) {
        return new NatsServerSpec(broker, jetStream, bytes, binary, mqtt);
    }

    public NatsServerSpec withBinary(NatsServerBinary server) {
        return new NatsServerSpec(broker, jetStream, maxPayloadBytes, server, mqtt);
    }

    /** Each server with JetStream and an MQTT listener, where MQTT clients connect without a login. */
    public NatsServerSpec withMqtt() {
        return new NatsServerSpec(broker, true, maxPayloadBytes, binary, true);
    }
}
