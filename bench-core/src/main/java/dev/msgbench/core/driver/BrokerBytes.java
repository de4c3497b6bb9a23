package dev.msgbench.core.driver;

/**
 * What the broker itself counted of a run's messages, in bytes: after the client's compression
 * and with the system's own framing, so a run of compressible payloads shows what a codec saved
 * ({@link MessagingSystem#brokerBytes()}).
 *
 * @param counter which counter of the broker, in words (Kafka: the size of the topics' partition
 *                logs, from describeLogDirs)
 * @param bytes   its value for the run's destinations, at the end of the run
 */
public record BrokerBytes(String counter, long bytes) {

    public BrokerBytes {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes >= 0, got " + bytes);
        }
    }
}
