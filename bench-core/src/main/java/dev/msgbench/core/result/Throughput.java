package dev.msgbench.core.result;

/**
 * Rates of a throughput run, at each end. MiB are 2^20 bytes of whole messages, as the
 * published Kafka figures count them (E7: 100-byte records at 821,557/s = 78.3 MB/s).
 *
 * @param publishSeconds from the start to the last acknowledgement (or, where the system does not
 *                       acknowledge, to the end of the publishers' flush): the publisher is done only
 *                       when all is acknowledged
 * @param consumeSeconds from the start (or, consuming after producing, from the first message
 *                       received) to the last message received
 * @param consumerFirstMessageSeconds consuming after producing: from the consumers' start to their
 *                       first message (creating them, joining a group, the first fetch); else 0
 */
public record Throughput(long sent, long received, double publishSeconds, double publisherMsgsPerSec,
                         double publisherMiBPerSec, double consumeSeconds, double consumerMsgsPerSec,
                         double consumerMiBPerSec, double consumerFirstMessageSeconds) {
}
