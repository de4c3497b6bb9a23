package dev.msgbench.core.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * What a driver needs to know about the run before it starts.
 *
 * <p>Destinations and fan-out, the same for every system: producer stream {@code s} publishes to
 * topic {@code s mod topics}. Each topic has {@code subscriptionsPerTopic} subscriptions, every one
 * of which receives every message of its topic, and each subscription has
 * {@link #consumersPerSubscription()} consumers that share its messages. Consumer index {@code i}
 * (as {@link MessagingSystem#subscribe} numbers them) belongs to topic
 * {@code i / (subscriptionsPerTopic * consumersPerSubscription)}, subscription
 * {@code (i / consumersPerSubscription) mod subscriptionsPerTopic} of it, and is member
 * {@code i mod consumersPerSubscription} of that subscription. Where a system keeps a destination
 * per producer stream, a member reads the streams of its topic given by {@link #streamsOf}.
 *
 * @param runId                 unique per run; drivers use it to name topics, subjects and queues
 * @param messageSizeBytes      the largest message of the run, header included: every message with one
 *                              --size, the largest size of a distribution ({@code uniform:}, {@code
 *                              weights:}). Drivers check the system's limits against it; each
 *                              message's own length is its array's
 * @param producers             number of producer streams
 * @param consumers             number of subscribers over all topics and subscriptions (the
 *                              engine's calls to {@link MessagingSystem#subscribe})
 * @param topics                destinations of the run (--topics), at least 1
 * @param subscriptionsPerTopic subscriptions of each topic (--subscriptions-per-topic), at least 1
 * @param producerConnections   connections the producer streams share (--producer-threads), from 1 to
 *                              {@code producers}: the publisher of stream {@code s} uses connection
 *                              {@link #producerConnectionOf s}, and the engine publishes every stream of one
 *                              connection from one thread, so a connection never needs to be thread-safe.
 *                              Equal to {@code producers} when each stream has a connection of its own
 * @param consumerConnections   connections the consumers share (--consumer-connections), from 1 to
 *                              {@code consumers}, a multiple of {@code subscriptionsPerTopic *
 *                              consumersPerSubscription} when below {@code consumers}: consumer {@code i}
 *                              uses connection {@link #consumerConnectionOf i}, which it shares only with
 *                              consumers of the same subscription number and member number on other
 *                              topics (what a Kafka consumer group spanning several topics needs). Equal to
 *                              {@code consumers} when each consumer has a connection of its own
 */
public record RunPlan(String runId, int messageSizeBytes, int producers, int consumers, int topics,
                      int subscriptionsPerTopic, int producerConnections, int consumerConnections) {

    public RunPlan {
        if (topics < 1 || subscriptionsPerTopic < 1 || consumers % (topics * subscriptionsPerTopic) != 0) {
            throw new IllegalArgumentException("topics " + topics + " x subscriptions " + subscriptionsPerTopic
                    + " must divide consumers " + consumers);
        }
        if (producers > 0 && (producerConnections < 1 || producerConnections > producers)) {
            throw new IllegalArgumentException("producer connections from 1 to " + producers + ": "
                    + producerConnections);
        }
        int perTopic = consumers / topics;
        if (consumers > 0 && (consumerConnections < 1 || consumerConnections > consumers
                || consumerConnections < consumers && consumerConnections % perTopic != 0)) {
            throw new IllegalArgumentException("consumer connections from 1 to " + consumers
                    + ", a multiple of " + perTopic + " below it: " + consumerConnections);
        }
    }

    /** Every producer stream and every consumer with a connection of its own. */
    public RunPlan(String runId, int messageSizeBytes, int producers, int consumers, int topics,
                   int subscriptionsPerTopic) {
        this(runId, messageSizeBytes, producers, consumers, topics, subscriptionsPerTopic, producers, consumers);
    }

    /** One topic with one subscription: every run before --topics. */
    public RunPlan(String runId, int messageSizeBytes, int producers, int consumers) {
        this(runId, messageSizeBytes, producers, consumers, 1, 1);
    }

    /** The same run with {@code count} consumers per subscription, each with a connection of its own. */
    public RunPlan withConsumersPerSubscription(int count) {
        return new RunPlan(runId, messageSizeBytes, producers, count * topics * subscriptionsPerTopic, topics,
                subscriptionsPerTopic, producerConnections, count * topics * subscriptionsPerTopic);
    }

    /** Whether some producer streams share a connection (and a thread). */
    public boolean producersShareConnections() {
        return producerConnections < producers;
    }

    /** The connection, from 0, that producer stream {@code streamId} publishes on. */
    public int producerConnectionOf(int streamId) {
        return streamId % producerConnections;
    }

    /** Whether some consumers share a connection. */
    public boolean consumersShareConnections() {
        return consumerConnections < consumers;
    }

    /**
     * The connection, from 0, that consumer {@code index} receives on: consumers that share one have
     * the same subscription and member number, on different topics.
     */
    public int consumerConnectionOf(int index) {
        return index % consumerConnections;
    }

    public int consumersPerSubscription() {
        return consumers / (topics * subscriptionsPerTopic);
    }

    /** The topic producer stream {@code streamId} publishes to. */
    public int topicOf(int streamId) {
        return streamId % topics;
    }

    /**
     * The name of topic {@code topic}: the run id itself with one topic (the names of every run
     * before --topics), else the run id and "-t" and the topic's number.
     */
    public String topicName(int topic) {
        return topics == 1 ? runId : runId + "-t" + topic;
    }

    /** The topic consumer {@code index} reads. */
    public int topicOfConsumer(int index) {
        return index / (subscriptionsPerTopic * consumersPerSubscription());
    }

    /** Which of its topic's subscriptions consumer {@code index} belongs to, from 0. */
    public int subscriptionOfConsumer(int index) {
        return index / consumersPerSubscription() % subscriptionsPerTopic;
    }

    /** Which member of its subscription consumer {@code index} is, from 0. */
    public int memberOfConsumer(int index) {
        return index % consumersPerSubscription();
    }

    /**
     * Whether consumer {@code index} reads stream {@code streamId}, where a system keeps a destination
     * per stream: the streams of a topic are dealt to its subscription's members in turn, so one
     * topic, one subscription and one member reads stream s when s mod consumers is its index, as
     * before --topics.
     */
    public boolean reads(int index, int streamId) {
        return topicOf(streamId) == topicOfConsumer(index)
                && streamId / topics % consumersPerSubscription() == memberOfConsumer(index);
    }

    /**
     * The streams consumer {@code index} reads, as {@link #reads} deals them; empty when it has none.
     * Counted out rather than found among all streams: with a million topics, every consumer asking
     * of every stream would take hours.
     */
    public List<Integer> streamsOf(int index) {
        List<Integer> streams = new ArrayList<>();
        // the streams of topic t are t, t + topics, ...; the k-th of them goes to member k mod consumersPerSubscription
        long topic = topicOfConsumer(index);
        for (long k = memberOfConsumer(index); topic + k * topics < producers; k += consumersPerSubscription()) {
            streams.add((int) (topic + k * topics));
        }
        return streams;
    }

    /**
     * A name for subscription {@code subscription} of topic {@code topic} (a consumer group, a
     * durable consumer, a queue): the topic's name and "-s" and its number.
     */
    public String subscriptionName(int topic, int subscription) {
        return topicName(topic) + "-s" + subscription;
    }
}
