package dev.msgbench.core.record;

/**
 * What one subscription of one topic received of the topic's streams, added up.
 *
 * @param topic        from 0
 * @param subscription of the topic, from 0
 * @param counts       {@code sent} and {@code expected} are the topic's messages sent
 * @param losses       expected and never received by this subscription, by acknowledgement
 */
public record SubscriptionSnapshot(int topic, int subscription, StreamSnapshot counts, Losses losses) {
}
