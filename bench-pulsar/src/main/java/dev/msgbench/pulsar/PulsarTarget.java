package dev.msgbench.pulsar;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.pulsar.client.api.CompressionType;
import org.apache.pulsar.client.api.SubscriptionType;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.fault.NodeChoice;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.pulsar.broker.LocalPulsar;
import dev.msgbench.pulsar.broker.LocalPulsarBroker;
import dev.msgbench.pulsar.broker.LocalPulsarCluster;
import dev.msgbench.pulsar.broker.PulsarBrokerSpec;
import dev.msgbench.pulsar.broker.PulsarLogin;
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
    /** What node=bookie-K and node=broker-K name on a cluster. */
    private static final String BOOKIE = "bookie";
    private static final String BROKER = "broker";
    private static final String TOKEN_NEEDS_SECURE = "--pulsar-auth token: the token login is the suite's secured "
            + "Pulsar's; add --secure, or log in to a broker of yours with --url and --pulsar-token-file";

    @Option(names = "--pulsar-batching", paramLabel = "off|default|DELAY", defaultValue = "default",
            converter = BatchingConverter.class,
            description = "Pulsar: the producers' batching: default (Pulsar's own: on, a batch sent at the latest 1 ms "
                    + "after its first message, at most 1000 messages or 128 KiB), off (each message sent alone: the "
                    + "lowest latency at low rates), or the longest delay of a batch, such as 100us or 5ms "
                    + "(default: ${DEFAULT-VALUE}).")
    PulsarBatching batching;

    @Option(names = "--pulsar-send-timeout", paramLabel = "TIME", defaultValue = "30s",
            converter = SendTimeoutConverter.class,
            description = "Pulsar: how long a producer's send waits for the broker's receipt before the client fails "
                    + "it (the producer's sendTimeout), such as 30s or 2m; 0 waits for ever. Sends fail after it while "
                    + "the bookies cannot reach their ack quorum, a bookie down with ensemble 3 of 3 among them; 0 "
                    + "measures the wait instead (default: ${DEFAULT-VALUE}, the client's own).")
    PulsarSendTimeout sendTimeout;

    @Option(names = "--pulsar-compression", paramLabel = "CODEC", converter = CompressionConverter.class,
            description = "Pulsar: the producers' compressionType: NONE, LZ4, ZLIB, ZSTD or SNAPPY (default: the "
                    + "client's, NONE); the broker stores the batches as the producer compressed them. Random payloads "
                    + "gain nothing from it (see --payload).")
    CompressionType compression;

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

    @Option(names = "--pulsar-auth", paramLabel = "basic|token", defaultValue = "basic",
            converter = LoginConverter.class,
            description = "Pulsar, with --secure: how the clients log in to the suite's secured standalone or "
                    + "cluster, which takes both: basic (user and password, AuthenticationProviderBasic) or token (a JWT signed with "
                    + "a secret key the suite makes in the run's temp dir, AuthenticationProviderToken); the brokers' "
                    + "own client logs in with its TLS certificate either way (default: ${DEFAULT-VALUE}).")
    PulsarLogin login;

    @Option(names = "--pulsar-token-file", paramLabel = "FILE",
            description = "Pulsar, with --url: log in with the token (a JWT) in FILE, Pulsar's AuthenticationToken "
                    + "(read from a file so that it is never on a command line or screen).")
    Path tokenFile;

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
     * power cut rolls back. On a cluster the bookies keep them, each on its own disk (node=bookie-K,
     * or node=all for the three: the cluster's {@code diskNodes}); the brokers, which node=N, leader
     * and any-follower name, keep nothing of a message.
     */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps, NodeChoice node) {
        boolean bookies = node.rule() == NodeChoice.Rule.ALL
                || node.rule() == NodeChoice.Rule.NAMED && node.role().equals(BOOKIE);
        return localNodes > 1 && !bookies ? "on a local cluster node=N, leader and any-follower name the brokers (1 "
                + "to " + LocalPulsarCluster.BROKERS + "), and the bookies hold the messages: name one, node=bookie-1 "
                + "to bookie-" + LocalPulsarCluster.BOOKIES + ", or node=all for every bookie" : null;
    }

    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return diskFaultRefused(localNodes, brokerProps, NodeChoice.LEADER);
    }

    /**
     * On a cluster, bookie-K is node BROKERS+K and broker-K node K (as node=K); a standalone is one
     * node, its bookie inside.
     */
    @Override
    public int namedNode(String role, int index, int localNodes) {
        if (localNodes == 1) {
            throw new UserError("a Pulsar standalone (--brokers 1) is one node, its broker and bookie in one JVM: "
                    + "use node=1, or a cluster (--brokers 3) for its bookies");
        }
        int count = role.equals(BOOKIE) ? LocalPulsarCluster.BOOKIES : role.equals(BROKER) ? LocalPulsarCluster.BROKERS : 0;
        if (count == 0 || index > count) {
            throw new UserError("a local Pulsar cluster names bookie-1 to bookie-" + LocalPulsarCluster.BOOKIES
                    + " and broker-1 to broker-" + LocalPulsarCluster.BROKERS + " (the same as node=1 to "
                    + LocalPulsarCluster.BROKERS + ")");
        }
        return role.equals(BOOKIE) ? LocalPulsarCluster.nodeOfBookie(index) : index;
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
        if (tokenFile != null && localNodes > 0) {
            throw new UserError("--pulsar-token-file logs in to a Pulsar given with --url; the suite's secured "
                    + "Pulsar has its own token: --secure --pulsar-auth token");
        }
        if (partitions < 0 || partitions > MAX_PARTITIONS) {
            throw new UserError("--pulsar-partitions must be 0 (a non-partitioned topic) to " + MAX_PARTITIONS
                    + ", got " + partitions);
        }
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        if (login == PulsarLogin.TOKEN && request.broker().security() == null) {
            throw new UserError(TOKEN_NEEDS_SECURE);
        }
        PulsarBrokerSpec spec = PulsarBrokerSpec.of(request.broker()).withLogin(login);
        return request.broker().nodes() == 1 ? LocalPulsar.start(spec) : LocalPulsarCluster.start(spec);
    }

    /**
     * TLS (pulsar+ssl://, --ca, mutual TLS) and a user and password (Pulsar's basic authentication)
     * or a token; --secure on a standalone and on a cluster's brokers.
     */
    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(new PulsarPerf());
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        LocalPulsarBroker local = request.broker() instanceof LocalPulsarBroker pulsar ? pulsar : null;
        String admin = local != null ? local.adminUrl() : adminUrl != null ? adminUrl : defaultAdminUrl(request.url());
        if (local == null && login == PulsarLogin.TOKEN) {
            throw new UserError(TOKEN_NEEDS_SECURE);
        }
        ClientSecurity security = tokenFile == null ? request.security()
                : request.security().withToken(Secret.fromFile("--pulsar-token-file", tokenFile));
        PulsarClientSecurity.check(request.url(), security);
        return new PulsarSystem(new PulsarSettings(request.url(), admin, request.acks(), batching, subscriptionType,
                partitions, local, security, compression, sendTimeout));
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

    static final class SendTimeoutConverter implements ITypeConverter<PulsarSendTimeout> {
        @Override
        public PulsarSendTimeout convert(String value) {
            try {
                return PulsarSendTimeout.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Pulsar's own names of its codecs, in either case. */
    static final class CompressionConverter implements ITypeConverter<CompressionType> {
        @Override
        public CompressionType convert(String value) {
            for (CompressionType type : CompressionType.values()) {
                if (type.name().equalsIgnoreCase(value)) {
                    return type;
                }
            }
            throw new TypeConversionException("must be NONE, LZ4, ZLIB, ZSTD or SNAPPY, got '" + value + "'");
        }
    }

    static final class LoginConverter implements ITypeConverter<PulsarLogin> {
        @Override
        public PulsarLogin convert(String value) {
            for (PulsarLogin login : PulsarLogin.values()) {
                if (login.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return login;
                }
            }
            throw new TypeConversionException("must be basic or token, got '" + value + "'");
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
