package dev.msgbench.redis.broker;

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
 * What local Redis to start.
 *
 * @param nodes        1 = a primary alone; N = a primary with N-1 replicas (--brokers)
 * @param serverArgs   redis.conf settings from --broker-prop, each passed as {@code --KEY VALUE}
 *                     after ours, so they win
 * @param logDir       where each node's log (redis-N.log) goes; null: inside the temp dir
 * @param startTimeout how long starting and the ready checks may take together
 * @param binary       the redis-server program; null: search the PATH, then /usr/bin and /usr/sbin
 * @param cpus         the CPUs the nodes run on (--broker-cpus); null: those of this JVM
 * @param security     TLS and the login the nodes demand (--secure); null: plaintext, no login
 * @param placement    where each node runs and listens (--isolate); null: loopback, in this JVM's namespace
 */
public record RedisBrokerSpec(int nodes, Map<String, String> serverArgs, Path logDir, Duration startTimeout,
                              Path binary, CpuList cpus, BrokerSecurity security, Placement placement) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    /** Ports, paths and replication topology differ on every start; a user value would break them. */
    static final Set<String> RESERVED = Set.of("port", "bind", "dir", "daemonize", "logfile", "replicaof", "slaveof",
            "tls-port", "tls-cert-file", "tls-key-file", "tls-ca-cert-file", "tls-auth-clients", "tls-replication",
            "masteruser", "masterauth", "user", "requirepass", "aclfile");

    public RedisBrokerSpec {
        placement = placement == null ? Placement.LOOPBACK : placement;
        if (nodes < 1) {
            throw new UserError("--brokers must be at least 1, got " + nodes);
        }
        serverArgs = serverArgs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(serverArgs));
        for (Map.Entry<String, String> arg : serverArgs.entrySet()) {
            String key = arg.getKey();
            if (RESERVED.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                throw new UserError("--broker-prop " + key + " cannot be set: msgbench chooses it for every start "
                        + "(ports, directories, replication, TLS and the login of --secure); remove it");
            }
            if (!key.matches("[A-Za-z0-9][A-Za-z0-9-]*") || arg.getValue() == null || arg.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE with a redis.conf setting as KEY (appendonly=yes), got '"
                        + key + "'");
            }
        }
        startTimeout = startTimeout == null ? DEFAULT_START_TIMEOUT : startTimeout;
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new UserError("the broker start timeout must be positive, got " + startTimeout);
        }
    }

    /** One node, no overrides, logs in the temp dir, 30 s to start, redis-server from the PATH. */
    public static RedisBrokerSpec defaults() {
        return new RedisBrokerSpec(1, Map.of(), null, DEFAULT_START_TIMEOUT, null, null, null, null);
    }

    public RedisBrokerSpec withNodes(int nodes) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    public RedisBrokerSpec withServerArgs(Map<String, String> serverArgs) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    public RedisBrokerSpec withLogDir(Path logDir) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    public RedisBrokerSpec withStartTimeout(Duration startTimeout) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    public RedisBrokerSpec withBinary(Path binary) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    /** @param security TLS and the login to demand, or null for an open server */
    public RedisBrokerSpec withSecurity(BrokerSecurity security) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public RedisBrokerSpec withCpus(CpuList cpus) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }

    /** @param placement where each node runs (--isolate), or null for loopback in this JVM's namespace */
    public RedisBrokerSpec withPlacement(Placement placement) {
        return new RedisBrokerSpec(nodes, serverArgs, logDir, startTimeout, binary, cpus, security, placement);
    }
}
