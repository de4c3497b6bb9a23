package dev.msgbench.pulsar;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.pulsar.client.api.SubscriptionType;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.pulsar.broker.LocalPulsar;
import dev.msgbench.pulsar.broker.LocalPulsarBroker;
import dev.msgbench.pulsar.broker.LocalPulsarCluster;
import dev.msgbench.pulsar.broker.PulsarBrokerSpec;
import dev.msgbench.pulsar.nativetool.PulsarPerf;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** Apache Pulsar: its flags, and a local standalone. */
public final class PulsarTarget implements SystemTarget {

    /** Far above what a topic of one benchmark needs. */
    private static final int MAX_PARTITIONS = 1_000;
    /** The broker's web service where --url names a broker of its own: Pulsar's default ports. */
    private static final int DEFAULT_WEB_PORT = 8080;
    private static final int DEFAULT_WEB_TLS_PORT = 8443;
    /** --brokers of a local cluster: 3 brokers on 3 bookies. */
    private static final int CLUSTER_BROKERS = 3;

    @Option(names = "--pulsar-batching", paramLabel = "off|default|DELAY", defaultValue = "default",
            converter = BatchingConverter.class,
            description = "Pulsar: the producers' batching: default (Pulsar's own: on, a batch sent at the latest 1 ms "
                    + "after its first message, at most 1000 messages or 128 KiB), off (each message sent alone: the "
                    + "lowest latency at low rates), or the longest delay of a batch, such as 100us or 5ms "
                    + "(default: ${DEFAULT-VALUE}).")
    PulsarBatching batching;

    @Option(names = "--pulsar-subscription-type", paramLabel = "TYPE", converter = SubscriptionTypeConverter.class,
            description = "Pulsar: the type of every subscription (one per --subscriptions-per-topic): exclusive (one "
                    + "consumer), failover (one consumer at a time, the others stand by), shared (messages dealt to "
                    + "the consumers round-robin) or key_shared (by key, --keys) (default: exclusive with one consumer "
                    + "per subscription, shared with several).")
    SubscriptionType subscriptionType;

    @Option(names = "--pulsar-partitions", paramLabel = "N", defaultValue = "0",
            description = "Pulsar: partitions of each topic, a partitioned topic from 1; 0 is a non-partitioned "
                    + "topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--pulsar-admin-url", paramLabel = "URL",
            description = "Pulsar: the broker's web service (admin REST API) where --url names a broker, for the "
                    + "topics and the namespace's persistence policy; several brokers in Pulsar's multi-host form, "
                    + "http://H1:8080,H2:8080, are asked in turn (default: http://HOST:8080, HOST from --url; "
                    + "https://HOST:8443 for pulsar+ssl://).")
    String adminUrl;

    @Override
    public String name() {
        return PulsarSystem.NAME;
    }

    @Override
    public boolean retainsMessages() {
        return true;
    }

    /**
     * The standalone's bookie keeps its journal and ledgers in the node's data dir, the disk a
     * power cut rolls back. On a cluster the nodes --fault names are the brokers, which keep
     * nothing of a message: its bookies (nodes 4 to 6 of the launcher) are not offered yet.
     */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return localNodes > 1 ? "on a local cluster the nodes --fault names are the brokers (1 to 3), and the bookies "
                + "hold the messages, which a fault cannot name yet; run it on the standalone (--brokers 1)" : null;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        if (acks != null) {
            PulsarAcks.validate(acks);
        }
        if (localNodes > 1 && localNodes != CLUSTER_BROKERS) {
            throw new UserError("--brokers " + localNodes + ": a local Pulsar is one standalone (--brokers 1) or a "
                    + "cluster of 3 brokers and 3 bookies (--brokers 3); use one of them, or --url");
        }
        if (partitions < 0 || partitions > MAX_PARTITIONS) {
            throw new UserError("--pulsar-partitions must be 0 (a non-partitioned topic) to " + MAX_PARTITIONS
                    + ", got " + partitions);
        }
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        PulsarBrokerSpec spec = PulsarBrokerSpec.of(request.broker());
        return request.broker().nodes() == 1 ? LocalPulsar.start(spec) : LocalPulsarCluster.start(spec);
    }

    /**
     * TLS (pulsar+ssl://, --ca, mutual TLS) and a user and password (Pulsar's basic authentication);
     * --secure on a standalone.
     */
    @Override
    public boolean securable() {
        return true;
    }

    /** A cluster's bookies, ZooKeeper and brokers would each need TLS and a login among themselves: not yet. */
    @Override
    public String secureRefused(int localNodes) {
        return localNodes > 1 ? LocalPulsarCluster.SECURE_REFUSED : null;
    }

    /** The standalone runs on node 1's host; a cluster's bookies and ZooKeeper would need hosts too. */
    @Override
    public String isolateRefused(int localNodes) {
        return localNodes > 1 ? LocalPulsarCluster.ISOLATE_REFUSED : null;
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(new PulsarPerf());
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        LocalPulsarBroker local = request.broker() instanceof LocalPulsarBroker pulsar ? pulsar : null;
        String admin = local != null ? local.adminUrl() : adminUrl != null ? adminUrl : defaultAdminUrl(request.url());
        PulsarClientSecurity.check(request.url(), request.security());
        return new PulsarSystem(new PulsarSettings(request.url(), admin, request.acks(), batching, subscriptionType,
                partitions, local, request.security()));
    }

    /** http://HOST:8080 for pulsar://HOST:PORT, https://HOST:8443 for pulsar+ssl://HOST:PORT. */
    static String defaultAdminUrl(String serviceUrl) {
        String first = serviceUrl.split(",")[0];
        URI uri;
        try {
            uri = URI.create(first);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        boolean tls = uri != null && "pulsar+ssl".equals(uri.getScheme());
        if (uri == null || uri.getHost() == null || !("pulsar".equals(uri.getScheme()) || tls)) {
            throw new UserError("--url must be Pulsar's service URL, pulsar://HOST:PORT or pulsar+ssl://HOST:PORT, got '"
                    + serviceUrl + "'");
        }
        return tls ? "https://" + uri.getHost() + ":" + DEFAULT_WEB_TLS_PORT
                : "http://" + uri.getHost() + ":" + DEFAULT_WEB_PORT;
    }

    static final class BatchingConverter implements ITypeConverter<PulsarBatching> {
        @Override
        public PulsarBatching convert(String value) {
            try {
                return PulsarBatching.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class SubscriptionTypeConverter implements ITypeConverter<SubscriptionType> {
        @Override
        public SubscriptionType convert(String value) {
            for (SubscriptionType type : SubscriptionType.values()) {
                if (type.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return type;
                }
            }
            throw new TypeConversionException("must be exclusive, shared, failover or key_shared, got '" + value + "'");
        }
    }
}
