package dev.msgbench.pulsar.broker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;

/**
 * What local Pulsar to start.
 *
 * @param broker what every local broker has: one node is one {@code pulsar standalone} (broker,
 *               bookie and RocksDB metadata store in one JVM), three nodes a cluster
 *               ({@link LocalPulsarCluster}); its props are standalone.conf settings, or the
 *               brokers' and bookies' alike in a cluster, written after ours so that they win
 *               (journalSyncData is the bookie's); its log dir holds pulsar-1.log, or a log per JVM
 *               of a cluster; its start timeout covers the JVMs, the bookies, the brokers and their
 *               health checks (default 120 s, a cluster's 240 s)
 * @param heap   -Xmx and -Xms of the standalone's JVM or of each broker of a cluster, e.g. "512m";
 *               its direct memory (the bookie's write cache and read-ahead, the broker's entry
 *               cache) is as large
 * @param login  how the suite's clients log in to a Pulsar started with --secure (it takes
 *               both); BASIC when null
 */
public record PulsarBrokerSpec(BrokerSpec broker, String heap, PulsarLogin login) {

    public static final String DEFAULT_HEAP = "512m";
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);
    /**
     * A cluster's seven JVMs start one after the other: 38 to 71 s on 2 cores at load 7 to 10, and
     * more than 120 s at load 20 and above (other builds beside it, 2026-11-29).
     */
    public static final Duration CLUSTER_START_TIMEOUT = Duration.ofSeconds(240);

    /** Ports, addresses and directories differ on every start; a user's value would break it. */
    static final Set<String> RESERVED_PROPS = Set.of("clusterName", "brokerServicePort", "brokerServicePortTls",
            "webServicePort", "webServicePortTls", "bindAddress", "bindAddresses", "advertisedAddress",
            "advertisedListeners", "metadataStoreUrl", "configurationMetadataStoreUrl", "bookiePort",
            "journalDirectory", "journalDirectories", "ledgerDirectories", "indexDirectories", "httpServerPort",
            "metadataServiceUri", "bookkeeperMetadataServiceUri", "zkServers", "listeningInterface");

    public PulsarBrokerSpec {
        Objects.requireNonNull(broker, "broker");
        broker = broker.withDefaultStartTimeout(broker.nodes() > 1 ? CLUSTER_START_TIMEOUT : DEFAULT_START_TIMEOUT);
        for (Map.Entry<String, String> prop : broker.props().entrySet()) {
            if (RESERVED_PROPS.contains(prop.getKey())) {
                throw new UserError("--broker-prop " + prop.getKey() + " cannot be set: msgbench chooses it for "
                        + "every start (ports, addresses, directories); remove it");
            }
            if (!prop.getKey().matches("[A-Za-z][A-Za-z0-9_.]*") || prop.getValue() == null
                    || prop.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE with a standalone.conf setting as KEY "
                        + "(journalSyncData=false), got '" + prop.getKey() + "'");
            }
        }
        heap = heap == null ? DEFAULT_HEAP : heap;
        login = login == null ? PulsarLogin.BASIC : login;
        if (!heap.matches("[1-9][0-9]*[kKmMgG]?")) {
            throw new UserError("the broker heap must be a JVM size such as 512m or 2g, got '" + heap + "'");
        }
    }

    /** {@code broker} with a 512m heap, clients logging in with a user and password. */
    public static PulsarBrokerSpec of(BrokerSpec broker) {
        return new PulsarBrokerSpec(broker, DEFAULT_HEAP, PulsarLogin.BASIC);
    }

    public PulsarBrokerSpec withLogin(PulsarLogin newLogin) {
        return new PulsarBrokerSpec(broker, heap, newLogin);
    }

    /** One node, no overrides, 512m heap, logs in the temp dir, 120 s to start. */
    public static PulsarBrokerSpec defaults() {
        return of(BrokerSpec.defaults());
    }
}
