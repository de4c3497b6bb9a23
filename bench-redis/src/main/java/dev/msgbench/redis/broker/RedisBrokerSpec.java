package dev.msgbench.redis.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;

/**
 * What local Redis to start.
 *
 * @param broker what every local broker has: 1 node is a primary alone, N a primary with N-1
 *               replicas; its props are redis.conf settings, each passed as {@code --KEY VALUE}
 *               after ours, so they win; its log dir holds each node's redis-N.log; its start
 *               timeout covers starting and the ready checks together (default 30 s); secured,
 *               the nodes demand TLS and a login, else they speak plaintext with no login
 * @param binary the redis-server program; null: search the PATH, then /usr/bin and /usr/sbin
 */
public record RedisBrokerSpec(BrokerSpec broker, Path binary) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    /** Ports, paths and replication topology differ on every start; a user value would break them. */
    static final Set<String> RESERVED = Set.of("port", "bind", "dir", "daemonize", "logfile", "replicaof", "slaveof",
            "tls-port", "tls-cert-file", "tls-key-file", "tls-ca-cert-file", "tls-auth-clients", "tls-replication",
            "masteruser", "masterauth", "user", "requirepass", "aclfile");

    public RedisBrokerSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        for (Map.Entry<String, String> arg : broker.props().entrySet()) {
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
    }

    /** {@code broker} with redis-server from the PATH. */
    public static RedisBrokerSpec of(BrokerSpec broker) {
        return new RedisBrokerSpec(broker, null);
    }

    /** One node, no overrides, logs in the temp dir, 30 s to start, redis-server from the PATH. */
    public static RedisBrokerSpec defaults() {
        return of(BrokerSpec.defaults());
    }

    public RedisBrokerSpec withBroker(BrokerSpec broker) {
        return new RedisBrokerSpec(broker, binary);
    }

    public RedisBrokerSpec withBinary(Path binary) {
        return new RedisBrokerSpec(broker, binary);
    }
}
