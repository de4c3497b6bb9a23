package dev.msgbench.rabbit;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;

/**
 * How a RabbitMQ Streams run is set up.
 *
 * @param url                  one or more {@code rabbitmq-stream://HOST:PORT} URIs, separated by commas,
 *                             or {@code rabbitmq-stream+tls://HOST:PORT} for TLS
 * @param acks                 {@link Acks#ALL}, or {@link Acks#BROKER} where a stream has one replica
 *                             (the two are then the same); the stream protocol confirms every publish
 * @param maxUnconfirmed       publishes per producer that may await their confirm before a publish blocks
 * @param replicas             x-initial-cluster-size of each stream: the local cluster's node count;
 *                             null to leave it to the broker (--url)
 * @param superStreamPartitions --super-stream-partitions: each topic a super stream of that many
 *                             partition streams; null for one plain stream per topic
 * @param singleActiveConsumer --stream-single-active-consumer: the consumers of one subscription
 *                             form one group, in which one consumer at a time reads each stream
 *                             (each partition of a super stream)
 * @param security             TLS (rabbitmq-stream+tls:// without it trusts the JVM's authorities) and a
 *                             login, which wins over the URL's; null for {@link ClientSecurity#NONE}
 */
public record StreamSettings(String url, Acks acks, int maxUnconfirmed, Integer replicas,
                             Integer superStreamPartitions, boolean singleActiveConsumer,
                             ClientSecurity security) {

    /** The stream client's own default (ProducerBuilder#maxUnconfirmedMessages). */
    public static final int DEFAULT_MAX_UNCONFIRMED = 10_000;
    /** Every publish is confirmed: the stream protocol has no publish without one. */
    public static final Acks DEFAULT_ACKS = Acks.ALL;

    public StreamSettings {
        Objects.requireNonNull(url, "url");
        acks = acks == null ? DEFAULT_ACKS : acks;
        security = security == null ? ClientSecurity.NONE : security;
    }

    public static StreamSettings defaults(String url) {
        return new StreamSettings(url, DEFAULT_ACKS, DEFAULT_MAX_UNCONFIRMED, null, null, false, ClientSecurity.NONE);
    }

    public StreamSettings withAcks(Acks acks) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, superStreamPartitions, singleActiveConsumer, security);
    }

    public StreamSettings withMaxUnconfirmed(int maxUnconfirmed) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, superStreamPartitions, singleActiveConsumer, security);
    }

    public StreamSettings withReplicas(Integer replicas) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, superStreamPartitions, singleActiveConsumer, security);
    }

    public StreamSettings withSuperStreamPartitions(Integer partitions) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, partitions, singleActiveConsumer, security);
    }

    public StreamSettings withSingleActiveConsumer(boolean on) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, superStreamPartitions, on, security);
    }

    public StreamSettings withSecurity(ClientSecurity security) {
        return new StreamSettings(url, acks, maxUnconfirmed, replicas, superStreamPartitions, singleActiveConsumer, security);
    }

    /** The URIs of {@link #url}, each trimmed. */
    List<String> uris() {
        return Arrays.stream(url.split(",")).map(String::trim).filter(u -> !u.isEmpty()).collect(Collectors.toList());
    }
}
