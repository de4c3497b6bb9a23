package dev.msgbench.nats.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.security.BrokerSecurity;

/**
 * What local nats-server (or cluster of them) to start.
 *
 * @param nodes           servers (--brokers); more than one form a cluster with routes
 * @param jetStream       whether JetStream is enabled (-js)
 * @param serverProps     server config entries from --broker-prop, written last over ours; a dotted
 *                        key goes into a block: {@code jetstream.sync_interval=always} becomes
 *                        {@code jetstream { sync_interval: always }}. Values are written as given,
 *                        in nats-server's config syntax.
 * @param maxPayloadBytes the server's max_payload: a size limit, raised so that large messages fit
 * @param logDir          where each server's log (nats-N.log) goes; null: inside the temp dir
 * @param startTimeout    how long starting and the ready checks may take together
 * @param binary          the server to run; null: {@link NatsServerBinary#find()}
 * @param cpus            the CPUs the servers run on (--broker-cpus); null: those of this JVM
 * @param security        TLS and the login clients must bring (--secure); null: an open server
 * @param placement    where each node runs and listens (--isolate); null: loopback, in this JVM's namespace
 */
public record NatsServerSpec(int nodes, boolean jetStream, Map<String, String> serverProps, long maxPayloadBytes,
                             Path logDir, Duration startTimeout, NatsServerBinary binary, CpuList cpus,
                             BrokerSecurity security, Placement placement) {

    public static final int DEFAULT_NODES = 1;
    /** Holds a 1 MiB message and its headers with room to spare; nats-server warns above 8 MB. */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 8L << 20;
    /** nats-server refuses a larger max_payload (and max_pending defaults to this). */
    public static final long MAX_PAYLOAD_LIMIT_BYTES = 64L << 20;
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    /** Ports, paths and cluster membership differ on every run; a user's value would break them. */
    static final Set<String> RESERVED = Set.of("listen", "host", "net", "port", "http", "http_port", "monitor_port",
            "https", "https_port", "server_name", "cluster", "routes", "log_file", "pid_file", "ports_file_dir",
            "store_dir", "jetstream.store_dir");

    /** What --secure writes into the config; a user's value would make a second, conflicting block. */
    static final Set<String> SECURED = Set.of("tls", "authorization", "accounts", "no_auth_user");

    public NatsServerSpec {
        placement = placement == null ? Placement.LOOPBACK : placement;
        if (nodes < 1) {
            throw new UserError("--brokers must be at least 1, got " + nodes);
        }
        serverProps = serverProps == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(serverProps));
        for (Map.Entry<String, String> prop : serverProps.entrySet()) {
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
            if (security != null && (SECURED.contains(key) || SECURED.stream().anyMatch(k -> key.startsWith(k + ".")))) {
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
        startTimeout = startTimeout == null ? DEFAULT_START_TIMEOUT : startTimeout;
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("the start timeout must be positive, got " + startTimeout);
        }
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

    /** One server, core NATS only, no overrides, 8 MB max_payload, logs in the temp dir. */
    public static NatsServerSpec defaults() {
        return new NatsServerSpec(DEFAULT_NODES, false, Map.of(), DEFAULT_MAX_PAYLOAD_BYTES, null, DEFAULT_START_TIMEOUT, null, null, null, null);
    }

    public NatsServerSpec withNodes(int n) {
        return new NatsServerSpec(n, jetStream, serverProps, maxPayloadBytes, logDir, startTimeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withJetStream(boolean enabled) {
        return new NatsServerSpec(nodes, enabled, serverProps, maxPayloadBytes, logDir, startTimeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withServerProps(Map<String, String> props) {
        return new NatsServerSpec(nodes, jetStream, props, maxPayloadBytes, logDir, startTimeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withMaxPayloadBytes(long bytes) {
        return new NatsServerSpec(nodes, jetStream, serverProps, bytes, logDir, startTimeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withLogDir(Path dir) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, dir, startTimeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withStartTimeout(Duration timeout) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, logDir, timeout, binary, cpus, security, placement);
    }

    public NatsServerSpec withBinary(NatsServerBinary server) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, logDir, startTimeout, server, cpus, security, placement);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public NatsServerSpec withCpus(CpuList cpus) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, logDir, startTimeout, binary, cpus, security, placement);
    }

    /** @param login TLS and the login the servers demand, or null for open servers */
    public NatsServerSpec withSecurity(BrokerSecurity login) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, logDir, startTimeout, binary, cpus, login, placement);
    }

    /** @param placement where each node runs (--isolate), or null for loopback in this JVM's namespace */
    public NatsServerSpec withPlacement(Placement placement) {
        return new NatsServerSpec(nodes, jetStream, serverProps, maxPayloadBytes, logDir, startTimeout, binary, cpus, security,
                placement);
    }
}
