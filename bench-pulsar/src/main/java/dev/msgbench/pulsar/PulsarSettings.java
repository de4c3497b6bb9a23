package dev.msgbench.pulsar;

import org.apache.pulsar.client.api.CompressionType;
import org.apache.pulsar.client.api.SubscriptionType;

import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.pulsar.broker.LocalPulsarBroker;

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
 * @param local            the standalone or cluster the suite started, for its settings
 *                         (journalSyncData is the bookies'), its start time and its nodes; null
 *                         with --url, whose bookies' files the suite cannot read
 * @param security         TLS (pulsar+ssl://, https://) and the login, for the client and the
 *                         admin calls alike
 * @param compression      the producers' codec (--pulsar-compression), or null for the client's default (NONE)
 * @param sendTimeout      how long a send waits for the broker's receipt (--pulsar-send-timeout)
 */
record PulsarSettings(String serviceUrl, String adminUrl, Acks acks, PulsarBatching batching,
                      SubscriptionType subscriptionType, int partitions, LocalPulsarBroker local,
                      ClientSecurity security, CompressionType compression, PulsarSendTimeout sendTimeout) {

    /** The client's default codec (none) and send timeout (30 s). */
    PulsarSettings(String serviceUrl, String adminUrl, Acks acks, PulsarBatching batching,
                   SubscriptionType subscriptionType, int partitions, LocalPulsarBroker local, ClientSecurity security) {
        this(serviceUrl, adminUrl, acks, batching, subscriptionType, partitions, local, security, null,
                PulsarSendTimeout.DEFAULT);
    }
}
