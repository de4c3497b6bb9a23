package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;

/**
 * How the Kafka adapter is configured for one run. Client properties given by the user are
 * passed through unchanged and override ours.
 *
 * @param bootstrapServers  where the brokers are
 * @param acks              what a publish waits for; null for Kafka's default, {@link #DEFAULT_ACKS}
 * @param partitions        partitions of the run's topic
 * @param replicationFactor replicas of the run's topic, or 0 for the broker's default
 * @param pollTimeout       the consumer's poll timeout (E5 polls every 5 ms)
 * @param brokerVersion     the broker's version when known (local broker), else null
 * @param connectTimeout    how long to try to reach the cluster before giving up
 * @param flushEachSend     call flush() after every send, as experiment E5's producer does: each
 *                          publish then waits for the broker, which the engine measures as send delay
 * @param security          TLS and the login of every client (producers, consumers, admin)
 * @param saslMechanism     how a login is sent: SCRAM-SHA-512 (the default), SCRAM-SHA-256 or PLAIN
 * @param clientProps       --client-config: applied to every client, under --producer-prop and --consumer-prop
 * @param transactions      --transactions and --abort-every, or null for producers outside transactions
 * @param isolationLevel    the consumers' isolation.level (--isolation-level), or null for Kafka's default
 *                          (read_uncommitted); --consumer-prop isolation.level wins over it
 */
public record KafkaSettings(String bootstrapServers, Acks acks, int partitions, int replicationFactor,
                            Map<String, String> producerProps, Map<String, String> consumerProps,
                            CommitMode commitMode, Duration pollTimeout, String brokerVersion,
                            Duration connectTimeout, boolean flushEachSend, ClientSecurity security,
                            String saslMechanism, Map<String, String> clientProps, KafkaTransactions transactions,
                            String isolationLevel) {

    /** The producer's default since Kafka 3.0. */
    public static final Acks DEFAULT_ACKS = Acks.ALL;

    public KafkaSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        acks = acks == null ? DEFAULT_ACKS : acks;
        Objects.requireNonNull(commitMode, "commitMode");
        security = security == null ? ClientSecurity.NONE : security;
        saslMechanism = saslMechanism == null ? KafkaClientSecurity.DEFAULT_MECHANISM : saslMechanism;
        KafkaClientSecurity.requireMechanism(saslMechanism);
        clientProps = clientProps == null ? Map.of() : Map.copyOf(clientProps);
        producerProps = Map.copyOf(producerProps);
        consumerProps = Map.copyOf(consumerProps);
        if (partitions < 1 || replicationFactor < 0 || replicationFactor > Short.MAX_VALUE) {
            throw new IllegalArgumentException("partitions >= 1, replication factor >= 0");
        }
    }

    /** Open: no TLS, no login, no --client-config. */
    public KafkaSettings(String bootstrapServers, Acks acks, int partitions, int replicationFactor,
                         Map<String, String> producerProps, Map<String, String> consumerProps,
                         CommitMode commitMode, Duration pollTimeout, String brokerVersion,
                         Duration connectTimeout, boolean flushEachSend) {
        this(bootstrapServers, acks, partitions, replicationFactor, producerProps, consumerProps, commitMode,
                pollTimeout, brokerVersion, connectTimeout, flushEachSend, ClientSecurity.NONE, null, Map.of(), null, null);
    }

    public KafkaSettings withSecurity(ClientSecurity newSecurity, String mechanism) {
        return new KafkaSettings(bootstrapServers, acks, partitions, replicationFactor, producerProps, consumerProps,
                commitMode, pollTimeout, brokerVersion, connectTimeout, flushEachSend, newSecurity, mechanism, clientProps,
                transactions, isolationLevel);
    }

    public KafkaSettings withClientProps(Map<String, String> props) {
        return new KafkaSettings(bootstrapServers, acks, partitions, replicationFactor, producerProps, consumerProps,
                commitMode, pollTimeout, brokerVersion, connectTimeout, flushEachSend, security, saslMechanism, props,
                transactions, isolationLevel);
    }

    /** @param newTransactions null for none; @param level the consumers' isolation.level, null for Kafka's default */
    public KafkaSettings withTransactions(KafkaTransactions newTransactions, String level) {
        return new KafkaSettings(bootstrapServers, acks, partitions, replicationFactor, producerProps, consumerProps,
                commitMode, pollTimeout, brokerVersion, connectTimeout, flushEachSend, security, saslMechanism, clientProps,
                newTransactions, level);
    }

    /** The consumers' isolation.level as in effect: --consumer-prop, then --isolation-level, then Kafka's default. */
    public String effectiveIsolationLevel() {
        String given = consumerProps.get("isolation.level");
        return given != null ? given : isolationLevel != null ? isolationLevel : "read_uncommitted";
    }

    /**
     * What every client (producer, consumer, admin) gets before its own properties: TLS and the
     * login, then --client-config. Holds the JAAS line: never print it.
     */
    public Map<String, String> commonClientProps() {
        Map<String, String> props = new java.util.LinkedHashMap<>(KafkaClientSecurity.props(security, saslMechanism));
        props.putAll(clientProps);
        return props;
    }

    public static KafkaSettings defaults(String bootstrapServers) {
        return new KafkaSettings(bootstrapServers, DEFAULT_ACKS, 1, 0, Map.of(), Map.of(), CommitMode.AUTO,
                Duration.ofMillis(100), null, Duration.ofSeconds(8), false);
    }

    /** The producer's acks setting: every value of --acks has its own in Kafka, under the same name. */
    public String producerAcks() {
        return switch (acks) {
            case NONE -> "0";
            case BROKER -> "1";
            case ALL -> "all";
        };
    }
}
