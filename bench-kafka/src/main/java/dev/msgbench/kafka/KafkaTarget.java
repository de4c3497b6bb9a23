package dev.msgbench.kafka;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;
import dev.msgbench.kafka.nativetool.KafkaPerfTools;
import picocli.CommandLine.Option;

/** Kafka, and anything that speaks its protocol (Redpanda): flags and local broker. */
public final class KafkaTarget implements SystemTarget {

    /** A local broker's limit must hold the largest message plus its batch overhead. */
    private static final long MESSAGE_MAX_MARGIN_BYTES = 64 * 1024;
    private static final long KAFKA_DEFAULT_MESSAGE_MAX_BYTES = 1_048_588;
    /** Far above what a topic of one benchmark needs; a broker asked for millions would take hours to create them. */
    private static final int MAX_PARTITIONS = 10_000;
    private static final Duration MAX_POLL_TIMEOUT = Duration.ofMinutes(1);
    /** Say an address is wrong well within 10 s, rather than after the client's long retries. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** The producer's codecs, as kafka-clients names them. */
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");
    static final String COMPRESSION_TYPE = "compression.type";

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "1",
            description = "Kafka: partitions of the run's topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--replication-factor", paramLabel = "N",
            description = "Kafka: replicas of the run's topic (default: the broker's default.replication.factor; a local cluster sets it to its size).")
    Integer replicationFactor;

    @Option(names = "--producer-prop", paramLabel = "KEY=VALUE",
            description = "Kafka: a producer property, passed through: linger.ms=5, batch.size=0, compression.type=lz4 (repeatable). "
                    + "Checked against the client's own definitions before anything starts: a value Kafka refuses is "
                    + "an error, a key it does not define a warning (Kafka only warns too).")
    Map<String, String> producerProps = new LinkedHashMap<>();

    @Option(names = "--consumer-prop", paramLabel = "KEY=VALUE",
            description = "Kafka: a consumer property, passed through: max.poll.records=50 (repeatable); checked as --producer-prop is.")
    Map<String, String> consumerProps = new LinkedHashMap<>();

    @Option(names = "--commit", paramLabel = "MODE",
            description = "Kafka: consumer offset commits: auto (Kafka's default), async or sync after each poll (default: auto). "
                    + "A consumer group's only: a share consumer acknowledges each record.")
    CommitMode commit;

    @Option(names = "--kafka-consumer", paramLabel = "KIND", defaultValue = "group",
            description = "Kafka: group, a KafkaConsumer in a consumer group per subscription (each partition read by one "
                    + "member, in order), or share, a KafkaShareConsumer in a share group per subscription (KIP-932: the "
                    + "members share every partition's records and acknowledge each, ACCEPT; at-least-once, no order "
                    + "promised; redeliveries are counted as duplicates) (default: ${DEFAULT-VALUE}).")
    ConsumerKind consumerKind;

    @Option(names = "--share-release-every", paramLabel = "N", defaultValue = "0",
            description = "Kafka share groups: each consumer RELEASEs every Nth record it sees for the first time instead "
                    + "of accepting it, so that the broker delivers it again: redeliveries on purpose; 0 never "
                    + "(default: ${DEFAULT-VALUE}).")
    int shareReleaseEvery;

    @Option(names = "--poll-timeout", paramLabel = "TIME", defaultValue = "100ms", converter = TimeConverter.class,
            description = "Kafka: the consumer's poll timeout (default: ${DEFAULT-VALUE}).")
    Duration pollTimeout;

    @Option(names = "--producer-flush", paramLabel = "WHEN", defaultValue = "none",
            description = "Kafka: none, or each-send: flush() after every send, as experiment E5 does; each publish "
                    + "then waits for the broker (measured as send delay) (default: ${DEFAULT-VALUE}).")
    String producerFlush;

    @Option(names = "--compression", paramLabel = "CODEC",
            description = "Kafka: the producers' compression.type: none, gzip, snappy, lz4 or zstd (default: the "
                    + "client's, none). The topic keeps Kafka's compression.type=producer, so the broker stores the "
                    + "batches as the producer compressed them; random payloads gain nothing from it (see --payload).")
    String compression;

    @Option(names = "--sasl-mechanism", paramLabel = "MECHANISM", defaultValue = KafkaClientSecurity.DEFAULT_MECHANISM,
            description = "Kafka: how --user and the password log in: SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN "
                    + "(default: ${DEFAULT-VALUE}).")
    String saslMechanism;

    @Option(names = "--client-config", paramLabel = "FILE",
            description = "Kafka: a client properties file (Kafka's own convention, as the console tools' --command-config), "
                    + "applied to the producers, the consumers and the admin client; --producer-prop and "
                    + "--consumer-prop win over it.")
    Path clientConfig;

    @Option(names = "--transactions", paramLabel = "SIZE",
            description = "Kafka: each producer stream sends in transactions of SIZE messages (100) or of a time from "
                    + "their first message (50ms), on two transactional producers of its own (ids unique to the run) "
                    + "that take turns: while one commits, on a thread of its own, the other takes the scheduled sends, "
                    + "so the schedule never waits for a commit. When both are still committing, the next send waits "
                    + "for one: that shows as send delay and a growing latency, never as a silent pause. A message is "
                    + "acknowledged when its transaction's commit returns; its latency includes the wait for it. "
                    + "The commit's own time (commitTransaction's call to its return) is recorded as latenciesMs.commit. "
                    + "Needs --acks all; consumers read_committed unless --isolation-level says otherwise.")
    String transactions;

    @Option(names = "--abort-every", paramLabel = "N",
            description = "Kafka, with --transactions: every Nth transaction of each stream is aborted on purpose; its "
                    + "messages are counted as aborted (never acknowledged, never lost), and any of them a consumer "
                    + "receives as abortedDelivered: a fault with read_committed, expected with read_uncommitted.")
    Integer abortEvery;

    @Option(names = "--isolation-level", paramLabel = "LEVEL",
            description = "Kafka: the consumers' isolation.level, read_committed (only committed transactions' "
                    + "records) or read_uncommitted (every record, aborted ones included) (default: read_committed "
                    + "with --transactions, else Kafka's read_uncommitted).")
    String isolationLevel;

    /** Read once: the values of secret-looking keys are registered as secrets before anything prints. */
    private Map<String, String> clientConfigProps;

    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public String name() {
        return "kafka";
    }

    /** Every partition is a log in log.dirs, whatever the flags. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return null;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        Map<String, String> props = new LinkedHashMap<>();
        long needed = request.messageSizeBytes() + MESSAGE_MAX_MARGIN_BYTES;
        if (needed > KAFKA_DEFAULT_MESSAGE_MAX_BYTES) {
            // a size limit, not a performance setting: raised only so that large messages fit
            props.put("message.max.bytes", Long.toString(needed));
            props.put("replica.fetch.max.bytes", Long.toString(needed));
        }
        props.putAll(request.broker().props());
        return LocalKafkaCluster.start(KafkaClusterSpec.of(request.broker().withProps(props)));
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(new KafkaPerfTools());
    }

    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        KafkaClientSecurity.requireMechanism(saslMechanism);
        clientConfigProps();
        if (!producerFlush.equals("none") && !producerFlush.equals("each-send")) {
            throw new UserError("--producer-flush must be none or each-send, got '" + producerFlush + "'");
        }
        if (compression != null) {
            if (!CODECS.contains(compression)) {
                throw new UserError("--compression must be one of " + String.join(", ", CODECS) + ", got '"
                        + compression + "'");
            }
            if (producerProps.containsKey(COMPRESSION_TYPE)) {
                throw new UserError("--compression sets the producer's " + COMPRESSION_TYPE + "; give either --compression "
                        + compression + " or --producer-prop " + COMPRESSION_TYPE + "=" + producerProps.get(COMPRESSION_TYPE)
                        + ", not both");
            }
        }
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new UserError("--partitions must be 1 to " + MAX_PARTITIONS + ", got " + partitions);
        }
        ShareSettings.check(consumerKind, shareReleaseEvery, transactions, isolationLevel, commit, consumerProps);
        if (pollTimeout.compareTo(MAX_POLL_TIMEOUT) > 0) {
            throw new UserError("--poll-timeout must be at most " + MAX_POLL_TIMEOUT.toSeconds() + " s (a longer poll "
                    + "only delays the end of the run), got " + pollTimeout.toSeconds() + " s");
        }
        KafkaTransactions.check(transactions, abortEvery, isolationLevel, acks, producerProps);
        if (replicationFactor != null && replicationFactor < 1) {
            throw new UserError("--replication-factor must be at least 1, got " + replicationFactor);
        }
        if (localNodes > 0 && replicationFactor != null && replicationFactor > localNodes) {
            throw new UserError("--replication-factor " + replicationFactor + " needs as many brokers; the local cluster would have "
                    + localNodes + " (add --brokers " + replicationFactor + ")");
        }
    }

    /** The responder of --pattern echo would forward outside any transaction: a round trip of half a transaction. */
    @Override
    public String echoRefused() {
        return transactions == null ? null : "--pattern echo and --transactions: the responder would forward outside any "
                + "transaction; give one of them";
    }

    @Override
    public List<String> checkProps(Map<String, String> brokerProps) {
        List<String> warnings = new ArrayList<>(KafkaProps.PRODUCER.check(producerProps));
        warnings.addAll(KafkaProps.CONSUMER.check(consumerProps));
        warnings.addAll(KafkaProps.BROKER.check(brokerProps));
        return warnings;
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        Map<String, String> producer = new LinkedHashMap<>(producerProps);
        if (compression != null) {
            producer.put(COMPRESSION_TYPE, compression);
        }
        return new KafkaSystem(new KafkaSettings(request.url(), request.acks(), partitions,
                replicationFactor == null ? 0 : replicationFactor, producer, consumerProps,
                commit == null ? CommitMode.AUTO : commit, pollTimeout,
                request.broker() == null ? null : request.broker().version(), CONNECT_TIMEOUT,
                "each-send".equals(producerFlush))
                .withSecurity(request.security(), saslMechanism)
                .withClientProps(clientConfigProps())
                .withTransactions(transactions == null ? null
                        : KafkaTransactions.parse(transactions, abortEvery == null ? 0 : abortEvery),
                        isolationLevel != null ? isolationLevel : transactions != null ? "read_committed" : null),
                new ShareSettings(consumerKind, consumerKind == ConsumerKind.SHARE ? shareReleaseEvery : 0));
    }

    private Map<String, String> clientConfigProps() {
        if (clientConfigProps == null) {
            clientConfigProps = clientConfig == null ? Map.of() : readClientConfig(clientConfig);
        }
        return clientConfigProps;
    }

    /** A Java properties file, as Kafka's tools read it; keys whose values are secrets are registered as such. */
    static Map<String, String> readClientConfig(Path file) {
        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read.load(in);
        } catch (NoSuchFileException e) {
            throw new UserError("--client-config: no such file " + file);
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("--client-config: cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        Map<String, String> props = new LinkedHashMap<>();
        for (String key : read.stringPropertyNames()) {
            String value = read.getProperty(key);
            if (isSecretKey(key) && !value.isEmpty()) {
                Secret.of(value);
            }
            props.put(key, value);
        }
        return props;
    }

    private static boolean isSecretKey(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return lower.contains("password") || lower.contains("jaas") || lower.contains("secret")
                || lower.endsWith(".key") || lower.contains("token");
    }
}
