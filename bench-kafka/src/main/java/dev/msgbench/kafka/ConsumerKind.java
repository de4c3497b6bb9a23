package dev.msgbench.kafka;

import java.util.Locale;

/** Which kind of Kafka consumer reads the run's topic (--kafka-consumer). */
public enum ConsumerKind {
    /** A KafkaConsumer in a consumer group: each partition is read by one member, in order. */
    GROUP,
    /**
     * A KafkaShareConsumer in a share group (KIP-932, queues for Kafka): members share the records of
     * every partition one by one and acknowledge each; delivery is at least once, in no promised order.
     */
    SHARE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
