package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.driver.Acks;

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
 */
public record KafkaSettings(String bootstrapServers, Acks acks, int partitions, int replicationFactor,
                            Map<String, String> producerProps, Map<String, String> consumerProps,
                            CommitMode commitMode, Duration pollTimeout, String brokerVersion,
                            Duration connectTimeout, boolean flushEachSend) {

    /** The producer's default since Kafka 3.0. */
    public static final Acks DEFAULT_ACKS = Acks.ALL;

    public KafkaSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        acks = acks == null ? DEFAULT_ACKS : acks;
        Objects.requireNonNull(commitMode, "commitMode");
        producerProps = Map.copyOf(producerProps);
        consumerProps = Map.copyOf(consumerProps);
        if (partitions < 1 || replicationFactor < 0 || replicationFactor > Short.MAX_VALUE) {
            throw new IllegalArgumentException("partitions >= 1, replication factor >= 0");
        }
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
