package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the Kafka adapter is configured for one run. Client properties given by the user are
 * passed through unchanged and override ours.
 *
 * @param bootstrapServers  where the brokers are
 * @param acks              "0", "1" or "all"
 * @param partitions        partitions of the run's topic
 * @param replicationFactor replicas of the run's topic, or 0 for the broker's default
 * @param pollTimeout       the consumer's poll timeout (E5 polls every 5 ms)
 * @param brokerVersion     the broker's version when known (local broker), else null
 * @param connectTimeout    how long to try to reach the cluster before giving up
 * @param flushEachSend     call flush() after every send, as experiment E5's producer does: each
 *                          publish then waits for the broker, which the engine measures as send delay
 */
public record KafkaSettings(String bootstrapServers, String acks, int partitions, int replicationFactor,
                            Map<String, String> producerProps, Map<String, String> consumerProps,
                            CommitMode commitMode, Duration pollTimeout, String brokerVersion,
                            Duration connectTimeout, boolean flushEachSend) {

    public KafkaSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(acks, "acks");
        Objects.requireNonNull(commitMode, "commitMode");
        producerProps = Map.copyOf(producerProps);
        consumerProps = Map.copyOf(consumerProps);
        if (partitions < 1 || replicationFactor < 0 || replicationFactor > Short.MAX_VALUE) {
            throw new IllegalArgumentException("partitions >= 1, replication factor >= 0");
        }
    }

    public static KafkaSettings defaults(String bootstrapServers) {
        return new KafkaSettings(bootstrapServers, "all", 1, 0, Map.of(), Map.of(), CommitMode.AUTO,
                Duration.ofMillis(100), null, Duration.ofSeconds(8), false);
    }
}
