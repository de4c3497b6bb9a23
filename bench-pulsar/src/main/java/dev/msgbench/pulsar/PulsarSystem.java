package dev.msgbench.pulsar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.client.impl.ProducerBuilderImpl;
import org.apache.pulsar.client.impl.conf.ProducerConfigurationData;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.BrokerBytes;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.echo.CloseAll;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.pulsar.broker.StandaloneConf;

/**
 * Pulsar through pulsar-client: one persistent topic per destination in public/default, one
 * Producer per producer stream, a Consumer per consumer on its subscription, all on one
 * PulsarClient (its I/O and listener threads). --acks sets the namespace's persistence policy
 * (ensemble, write and ack quorum) before the topics are made; without it the broker's defaults
 * apply. Both are read back from the broker for the result.
 */
public final class PulsarSystem implements MessagingSystem {

    static final String NAME = "pulsar";
    private static final String TOPIC_PREFIX = "persistent://" + PulsarAdmin.NAMESPACE + "/";
    /** Pulsar's maxMessageSize, the default of a broker that does not say. */
    private static final int DEFAULT_MAX_MESSAGE_BYTES = 5 * 1024 * 1024;
    /** The message's metadata beside its payload, with margin. */
    private static final int MESSAGE_OVERHEAD_BYTES = 1024;

    private final PulsarSettings settings;
    private final PulsarAdmin admin;
    private final List<String> topics = new ArrayList<>();
    private final Map<String, Object> durability = new LinkedHashMap<>();
    private PulsarClient client;
    private RunPlan plan;
    private SubscriptionType subscriptionType;
    private String brokerVersion = "unknown";
    private ProducerConfigurationData producerConf;
    private byte[][] keyBytes;

    PulsarSystem(PulsarSettings settings) {
        this.settings = settings;
        this.admin = new PulsarAdmin(settings.adminUrl(), settings.security());
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        this.subscriptionType = subscriptionType(runPlan);
        brokerVersion = admin.brokerVersion();
        Map<String, String> broker = admin.runtimeConfiguration();
        checkMessageSize(broker);
        if (settings.acks() != null) {
            int writeQuorum = Integer.parseInt(broker.getOrDefault(StandaloneConf.WRITE_QUORUM, "2"));
            int ensemble = Math.max(writeQuorum, Integer.parseInt(broker.getOrDefault(StandaloneConf.ENSEMBLE, "2")));
            admin.setPersistence(ensemble, writeQuorum, PulsarAcks.ackQuorum(settings.acks(), writeQuorum));
        }
        readDurability(broker);
        for (int t = 0; t < runPlan.topics(); t++) {
            String topic = runPlan.topicName(t);
            admin.createTopic(topic, settings.partitions());
            topics.add(topic);
        }
        try {
            ClientBuilder builder = PulsarClient.builder().serviceUrl(settings.serviceUrl())
                    .operationTimeout(10, TimeUnit.SECONDS).connectionTimeout(5, TimeUnit.SECONDS);
            PulsarClientSecurity.applyTo(builder, settings.security());
            client = builder.build();
        } catch (PulsarClientException e) {
            throw new UserError("--url: cannot use '" + settings.serviceUrl() + "' as Pulsar's service URL "
                    + "(pulsar://HOST:6650): " + e.getMessage());
        }
        // what every producer will run with, for info(), which the run asks before any producer exists
        if (producerBuilder() instanceof ProducerBuilderImpl<byte[]> probe) {
            producerConf = probe.getConf();
        }
    }

    /** A producer's builder with the run's batching, send timeout and codec. */
    private ProducerBuilder<byte[]> producerBuilder() {
        ProducerBuilder<byte[]> builder = client.newProducer(Schema.BYTES).blockIfQueueFull(true);
        settings.batching().applyTo(builder);
        settings.sendTimeout().applyTo(builder);
        if (settings.compression() != null) {
            builder.compressionType(settings.compression());
        }
        return builder;
    }

    /** Exclusive allows one consumer; a subscription of several shares its messages unless told otherwise. */
    private SubscriptionType subscriptionType(RunPlan runPlan) {
        int members = runPlan.consumers() == 0 ? 1 : runPlan.consumersPerSubscription();
        if (settings.subscriptionType() == null) {
            return members == 1 ? SubscriptionType.Exclusive : SubscriptionType.Shared;
        }
        if (settings.subscriptionType() == SubscriptionType.Exclusive && members > 1) {
            throw new UserError("--pulsar-subscription-type exclusive admits one consumer per subscription, and the "
                    + "run has " + members + "; use shared, failover or key_shared");
        }
        return settings.subscriptionType();
    }

    private void checkMessageSize(Map<String, String> broker) {
        int max = Integer.parseInt(broker.getOrDefault("maxMessageSize", Integer.toString(DEFAULT_MAX_MESSAGE_BYTES)));
        if (plan.messageSizeBytes() + MESSAGE_OVERHEAD_BYTES > max) {
            throw new UserError("--size " + plan.messageSizeBytes() + " B: this Pulsar accepts at most " + max
                    + " bytes per message (maxMessageSize); raise it and the bookie's nettyMaxFrameSizeBytes "
                    + "(--broker-prop for a local Pulsar)");
        }
    }

    /** The quorums as the broker has them, the namespace's policy first, and the bookie's journal sync. */
    private void readDurability(Map<String, String> broker) throws Exception {
        durability.put("acks", settings.acks() == null ? "broker default" : settings.acks().flagValue());
        Map<String, Object> policy = admin.persistence();
        if (policy.isEmpty()) {
            durability.put("persistencePolicy", "broker default (" + PulsarAdmin.NAMESPACE + " sets none)");
            durability.put("bookkeeperEnsemble", Integer.parseInt(broker.get(StandaloneConf.ENSEMBLE)));
            durability.put("bookkeeperWriteQuorum", Integer.parseInt(broker.get(StandaloneConf.WRITE_QUORUM)));
            durability.put("bookkeeperAckQuorum", Integer.parseInt(broker.get(StandaloneConf.ACK_QUORUM)));
        } else {
            durability.put("persistencePolicy", "namespace " + PulsarAdmin.NAMESPACE);
            for (String key : List.of("bookkeeperEnsemble", "bookkeeperWriteQuorum", "bookkeeperAckQuorum")) {
                durability.put(key, policy.get(key));
            }
        }
        durability.put(StandaloneConf.JOURNAL_SYNC_DATA, settings.local() == null
                ? "unknown (a bookie's setting; the suite reads it only from a Pulsar it started)"
                : Boolean.parseBoolean(settings.local().effectiveConf().get(StandaloneConf.JOURNAL_SYNC_DATA).strip()));
        durability.put("consumerAck", "acknowledgeAsync of each message after it was handed over");
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        int topic = plan.topicOfConsumer(index);
        PulsarSubscriber subscriber = new PulsarSubscriber(sink);
        Consumer<byte[]> consumer = client.newConsumer(Schema.BYTES)
                .topic(TOPIC_PREFIX + plan.topicName(topic))
                .subscriptionName(plan.subscriptionName(topic, plan.subscriptionOfConsumer(index)))
                .subscriptionType(subscriptionType)
                // a subscription made late (--consume-after-produce, --backlog) still reads from the topic's start
                .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                .consumerName("msgbench-consumer-" + index)
                .messageListener(subscriber)
                .subscribe();
        subscriber.attach(consumer);
        return subscriber;
    }

    /** The message's key: a partitioned topic routes by its hash, and key_shared deals keys to consumers. */
    @Override
    public String useKeys(RecordKeys keys) {
        this.keyBytes = keys.keyBytes();
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        Producer<byte[]> producer = producerBuilder()
                .topic(TOPIC_PREFIX + plan.topicName(plan.topicOf(streamId)))
                .producerName(plan.runId() + "-producer-" + streamId)
                .create();
        return new PulsarPublisher(producer, acks, keyBytes);
    }

    @Override
    public boolean retainsMessages() {
        return true;
    }

    /**
     * The node of the broker that owns the first topic (its partition 0 if partitioned), as a lookup
     * answers now: a standalone's one node, a cluster's broker 1 to 3.
     */
    @Override
    public OptionalInt leaderNode() throws Exception {
        if (settings.local() == null || topics.isEmpty()) {
            return OptionalInt.empty();
        }
        String topic = topics.get(0) + (settings.partitions() > 0 ? "-partition-0" : "");
        boolean tls = settings.serviceUrl().startsWith(PulsarClientSecurity.TLS_SCHEME);
        return settings.local().nodeOfBroker(admin.ownerOf(topic, tls));
    }

    /**
     * The broker's bytesInCounter of the run's topics (their stats; a partitioned topic's added over
     * its partitions): the entries the producers published, as their codec left them, with Pulsar's
     * message metadata.
     */
    @Override
    public BrokerBytes brokerBytes() throws Exception {
        if (admin == null || topics.isEmpty()) {
            return null;
        }
        long bytes = 0;
        for (String topic : topics) {
            bytes += admin.bytesIn(topic, settings.partitions() > 0);
        }
        return new BrokerBytes("pulsar: bytesInCounter of the run's topics (topic stats)", bytes);
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("serviceUrl", settings.serviceUrl());
        s.put("adminUrl", settings.adminUrl());
        s.put("login", PulsarClientSecurity.login(settings.security()));
        s.put("topic", topics.isEmpty() ? null : TOPIC_PREFIX + topics.get(0));
        if (topics.size() > 1) {
            s.put("topics", topics.size());
        }
        s.put("partitions", settings.partitions());
        s.put("subscriptionType", subscriptionType == null ? null : subscriptionType.name());
        s.put("pulsarBatching", settings.batching().toString());
        s.put("pulsarSendTimeout", settings.sendTimeout().toString());
        s.put("compressionType", settings.compression() == null ? "NONE (the client's default)"
                : settings.compression().name());
        if (producerConf != null) {
            s.put("batchingEnabled", producerConf.isBatchingEnabled());
            s.put("batchingMaxPublishDelayMicros", producerConf.getBatchingMaxPublishDelayMicros());
            s.put("batchingMaxMessages", producerConf.getBatchingMaxMessages());
            s.put("batchingMaxBytes", producerConf.getBatchingMaxBytes());
            // as the producers have it: 0 is never
            s.put("sendTimeoutMs", producerConf.getSendTimeoutMs());
        }
        if (settings.local() != null) {
            s.put(settings.local().kind() + "Conf", settings.local().effectiveConf());
            s.put("encryption", settings.local().encryption());
            // Pulsar's start is slow (JVMs, bookies, brokers): the figure says how slow here
            s.put(settings.local().kind() + "StartSeconds", settings.local().startTime().toMillis() / 1000.0);
        }
        return new SystemInfo(NAME, "pulsar-client " + PulsarClientVersion.VALUE, brokerVersion, durability, s, true);
    }

    /** Disconnects, then deletes the run's topics with their subscriptions: each, whatever the others do. */
    @Override
    public void close() throws Exception {
        List<AutoCloseable> steps = new ArrayList<>();
        steps.add(client);
        for (String topic : topics) {
            steps.add(() -> admin.deleteTopic(topic, settings.partitions() > 0));
        }
        CloseAll.inOrder(steps);
    }
}
