package dev.msgbench.pulsar;

import java.time.Duration;
import java.util.Map;

import org.apache.pulsar.client.api.SubscriptionType;

import dev.msgbench.core.driver.Acks;

/**
 * How one run reaches Pulsar.
 *
 * @param serviceUrl       the binary protocol's URL, pulsar://HOST:6650
 * @param adminUrl         the broker's web service, http://HOST:8080, for topics and policies
 * @param acks             --acks, or null for the broker's default quorums
 * @param batching         the producers' batching
 * @param subscriptionType the subscriptions' type, or null: exclusive with one consumer per
 *                         subscription, shared with several
 * @param partitions       partitions of each topic; 0 for a non-partitioned topic
 * @param localConf        a local standalone's standalone.conf settings (journalSyncData is the
 *                         bookie's); null with --url, whose bookies' files the suite cannot read
 * @param localStart       how long the local standalone took to start, to its first healthy
 *                         answer; null with --url
 */
record PulsarSettings(String serviceUrl, String adminUrl, Acks acks, PulsarBatching batching,
                      SubscriptionType subscriptionType, int partitions, Map<String, String> localConf,
                      Duration localStart) {
}
