package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.apache.kafka.common.utils.AppInfoParser;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.BrokerBytes;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.SharedClients;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;

/**
 * Kafka (or anything that speaks its protocol, such as Redpanda) through kafka-clients: one
 * fresh topic per run, one producer per stream, consumers in one group per subscription. When the
 * run's plan has them share connections (--producer-threads, --consumer-connections), a KafkaProducer
 * per producer connection serves its streams, and a KafkaConsumer per consumer connection its
 * consumers, in a group per subscription number over every topic. With --kafka-consumer share the
 * groups are share groups (KIP-932) of KafkaShareConsumers, one per consumer, which share every
 * partition's records and acknowledge each one.
 */
public final class KafkaSystem implements MessagingSystem {

    /** Record batch and record overhead that a message needs beyond its value, with margin. */
    private static final int RECORD_OVERHEAD_BYTES = 512;
    private static final int CLIENT_DEFAULT_MAX_REQUEST_BYTES = 1_048_576;
    private static final List<String> DURABILITY_TOPIC_CONFIGS = List.of(
            "min.insync.replicas", "flush.messages", "flush.ms", "unclean.leader.election.enable");

    private final KafkaSettings settings;
    private final ShareSettings share;
    /** What the share consumers counted by Kafka's delivery count; unused with a consumer group. */
    private final KafkaShareSubscriber.ShareCounts shareCounts = new KafkaShareSubscriber.ShareCounts();
    private ShareGroups shareGroups;
    /** The cluster's finalized share.version, read when share groups are asked for. */
    private short shareVersion;
    private final List<KafkaSubscriber> subscribers = new CopyOnWriteArrayList<>();
    /** The KafkaConsumers of each consumer group, by group id: one group per subscription. */
    private final Map<String, List<KafkaPoller>> groups = new java.util.concurrent.ConcurrentHashMap<>();
    /** The KafkaProducers that the streams of one connection share (--producer-threads), by connection. */
    private final SharedClients<KafkaProducer<byte[], byte[]>> sharedProducers =
            new SharedClients<>(KafkaPublisher::closeProducer);
    /** The KafkaConsumers that the consumers of one connection share (--consumer-connections), by connection. */
    private final SharedClients<SharedKafkaConsumer> sharedConsumers = new SharedClients<>(SharedKafkaConsumer::close);
    private Admin admin;
    private RunPlan plan;
    /** The first topic: the run's only one without --topics; its settings stand for all. */
    private String topic;
    private List<String> topicNames = List.of();
    private boolean topicCreated;
    private int replicationFactor;
    private String brokerVersion;
    private final Map<String, Object> topicDurability = new LinkedHashMap<>();
    private final Map<String, String> producerOverrides = new LinkedHashMap<>();
    /** Each key's bytes by index, shared by the publishers; null without --keys. */
    private byte[][] keyBytes;
    private RecordKeys keys = RecordKeys.NONE;

    public KafkaSystem(KafkaSettings settings) {
        this(settings, ShareSettings.GROUP);
    }

    /** @param share whether the consumers are in share groups (--kafka-consumer share) rather than consumer groups */
    public KafkaSystem(KafkaSettings settings, ShareSettings share) {
        this.settings = settings;
        this.share = share;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        if (settings.transactions() != null && runPlan.producersShareConnections()) {
            // a transaction belongs to one producer: streams sharing one would commit each other's messages
            throw new UserError(Phrase.of("--transactions gives each producer stream two producers of its own; "
                    + "it cannot share them with %s", Setting.PRODUCER_THREADS));
        }
        this.plan = runPlan;
        this.topic = runPlan.topicName(0);
        List<String> names = new ArrayList<>();
        for (int t = 0; t < runPlan.topics(); t++) {
            names.add(runPlan.topicName(t));
        }
        this.topicNames = List.copyOf(names);
        this.admin = connect();
        brokerVersion = settings.brokerVersion() != null ? settings.brokerVersion() : describeBrokerVersion();
        createTopic();
        readTopicSettings();
        checkMessageSize();
        if (share.share()) {
            prepareShareGroups();
        }
    }

    private void prepareShareGroups() throws Exception {
        if (plan.consumersShareConnections()) {
            throw new UserError("--consumer-connections applies to --kafka-consumer group only: a share consumer reads "
                    + "the share group of one topic, got --consumer-connections " + plan.consumerConnections() + " for "
                    + plan.consumers() + " consumers");
        }
        shareGroups = new ShareGroups(admin, settings.connectTimeout());
        shareVersion = shareGroups.requireFeature(settings.bootstrapServers());
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < plan.consumers(); i++) {
            names.add(groupOf(i));
        }
        if (!names.isEmpty()) {
            shareGroups.startAtEarliest(names);
        }
    }

    /** One group per subscription, each reading the whole topic; one subscription keeps the topic's name. */
    private String groupOf(int index) {
        return plan.subscriptionsPerTopic() == 1 ? plan.topicName(plan.topicOfConsumer(index))
                : plan.subscriptionName(plan.topicOfConsumer(index), plan.subscriptionOfConsumer(index));
    }

    private Admin connect() throws InterruptedException {
        Properties props = new Properties();
        props.putAll(settings.commonClientProps());
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        int timeoutMs = (int) settings.connectTimeout().toMillis();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1_000, timeoutMs / 2));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "msgbench-admin");
        Admin created;
        try {
            created = Admin.create(props);
        } catch (KafkaException e) {
            throw new UserError("--bootstrap-servers: cannot use '" + settings.bootstrapServers() + "': "
                    + rootMessage(e));
        }
        try {
            created.describeCluster().nodes().get(settings.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return created;
        } catch (ExecutionException e) {
            created.close(java.time.Duration.ZERO);
            UserError refused = KafkaSecurityErrors.explain(settings, e);
            if (refused != null) {
                throw refused;
            }
            throw noAnswer();
        } catch (TimeoutException e) {
            created.close(java.time.Duration.ZERO);
            throw noAnswer();
        } catch (InterruptedException e) {
            created.close(java.time.Duration.ZERO);
            throw e;
        }
    }

    private UserError noAnswer() {
        // a TLS listener never answers a plaintext client, it only waits: the timeout is all the client sees
        String plaintextLogin = settings.security().hasLogin() && !settings.security().usesTls()
                && !settings.clientProps().containsKey("security.protocol")
                ? " (the login went in plaintext: give --ca if the broker speaks TLS)" : "";
        return new UserError("--bootstrap-servers: no Kafka broker answered at " + settings.bootstrapServers()
                + " within " + settings.connectTimeout().toSeconds() + " s" + plaintextLogin
                + "; check the address, or omit the flag to start a local broker");
    }

    private String describeBrokerVersion() {
        try {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get(5, TimeUnit.SECONDS);
            FinalizedVersionRange metadata = features.finalizedFeatures().get("metadata.version");
            return metadata == null ? "unknown" : "unknown (metadata.version level " + metadata.maxVersionLevel() + ")";
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return "unknown";
        }
    }

    private void createTopic() throws Exception {
        Optional<Short> rf = settings.replicationFactor() == 0 ? Optional.empty()
                : Optional.of((short) settings.replicationFactor());
        try {
            List<NewTopic> created = new ArrayList<>();
            for (String name : topicNames) {
                created.add(new NewTopic(name, Optional.of(settings.partitions()), rf));
            }
            admin.createTopics(created).all().get(30, TimeUnit.SECONDS);
            topicCreated = true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                // another process of the same run made it (echo's external responder): use it, and
                // leave its removal to that process
                requireSamePartitions();
                return;
            }
            throw new UserError("cannot create topic " + (topicNames.size() == 1 ? topic : topic + " and "
                    + (topicNames.size() - 1) + " more") + " with --partitions " + settings.partitions()
                    + (settings.replicationFactor() == 0 ? "" : " and --replication-factor " + settings.replicationFactor())
                    + ": " + rootMessage(e));
        }
        for (String name : topicNames) {
            awaitLeaders(name);
        }
    }

    private void awaitLeaders(String name) throws Exception {
        // the topic exists once every partition has a leader
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            TopicDescription description = describeTopicIfKnown(name);
            boolean allLed = description != null && description.partitions().size() == settings.partitions()
                    && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
            if (allLed) {
                replicationFactor = description.partitions().get(0).replicas().size();
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new UserError("topic " + name + " has partitions without a leader after 30 s");
            }
            Thread.sleep(50);
        }
    }

    private void requireSamePartitions() throws Exception {
        TopicDescription existing = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
        if (existing.partitions().size() != settings.partitions()) {
            throw new UserError("topic " + topic + " exists with " + existing.partitions().size()
                    + " partitions, not the " + settings.partitions() + " of --partitions; give the same --partitions "
                    + "on both sides, or another --run-id");
        }
        replicationFactor = existing.partitions().get(0).replicas().size();
    }

    /** Null while the brokers have not all learned of the new topic (a cluster needs a moment). */
    private TopicDescription describeTopicIfKnown(String name) throws Exception {
        try {
            return admin.describeTopics(List.of(name)).allTopicNames().get(10, TimeUnit.SECONDS).get(name);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
    }

    private void readTopicSettings() throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = null;
        for (int attempt = 1; config == null; attempt++) {
            try {
                config = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt >= 100) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
        for (String name : DURABILITY_TOPIC_CONFIGS) {
            ConfigEntry entry = config.get(name);
            if (entry != null) {
                topicDurability.put(name, entry.value());
            }
        }
        ConfigEntry maxMessage = config.get("max.message.bytes");
        if (maxMessage != null) {
            topicDurability.put("max.message.bytes", maxMessage.value());
        }
    }

    private void checkMessageSize() {
        int needed = plan.messageSizeBytes() + RECORD_OVERHEAD_BYTES;
        Object topicMax = topicDurability.get("max.message.bytes");
        if (topicMax != null && Integer.parseInt(topicMax.toString()) < needed) {
            throw new UserError("--size " + plan.messageSizeBytes() + " B: this Kafka accepts at most " + topicMax
                    + " bytes per record batch; raise the broker's message.max.bytes (--broker-prop message.max.bytes="
                    + Math.max(needed, 2 * plan.messageSizeBytes()) + " for a local broker)");
        }
        if (needed > CLIENT_DEFAULT_MAX_REQUEST_BYTES && !settings.producerProps().containsKey(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)) {
            // the producer's own limit would reject every message; raising it changes nothing else
            producerOverrides.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(needed));
        }
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        String subscribed = plan.topicName(plan.topicOfConsumer(index));
        if (plan.consumersShareConnections()) {
            SharedClients<SharedKafkaConsumer>.Lease lease = sharedConsumers.acquire(plan.consumerConnectionOf(index),
                    connection -> sharedConsumer(connection, plan.subscriptionOfConsumer(index)));
            try {
                return lease.client().add(subscribed, sink, lease);
            } catch (RuntimeException e) {
                lease.close();
                throw e;
            }
        }
        String group = groupOf(index);
        if (share.share()) {
            return new KafkaShareSubscriber(index, shareConsumer(group, "msgbench-share-consumer-" + index), subscribed,
                    sink, settings.pollTimeout(), share.releaseEvery(),
                    () -> shareGroups.ready(group, plan.consumersPerSubscription(), settings.partitions()), shareCounts);
        }
        KafkaConsumer<byte[], ByteBuffer> consumer = consumer(group, "msgbench-consumer-" + index);
        List<KafkaPoller> members = groups.computeIfAbsent(group, g -> new CopyOnWriteArrayList<>());
        KafkaSubscriber subscriber = new KafkaSubscriber(index, consumer, subscribed, sink, settings.commitMode(),
                settings.pollTimeout(), () -> groupReady(members, settings.partitions()));
        subscribers.add(subscriber);
        members.add(subscriber);
        return subscriber;
    }

    /**
     * The KafkaConsumer of consumer connection {@code connection}: its consumers have one
     * subscription number and one member number, on topics of their own, so it joins a group of
     * that subscription that spans the topics and reads all of theirs.
     */
    private SharedKafkaConsumer sharedConsumer(int connection, int subscription) {
        List<String> topics = new ArrayList<>();
        for (int i = connection; i < plan.consumers(); i += plan.consumerConnections()) {
            topics.add(plan.topicName(plan.topicOfConsumer(i)));
        }
        String group = sharedGroupName(subscription);
        List<KafkaPoller> members = groups.computeIfAbsent(group, g -> new CopyOnWriteArrayList<>());
        SharedKafkaConsumer shared = new SharedKafkaConsumer(connection,
                consumer(group, "msgbench-consumer-connection-" + connection), topics, settings.commitMode(),
                settings.pollTimeout(), () -> groupReady(members, settings.partitions() * plan.topics()));
        members.add(shared);
        return shared;
    }

    /** With consumers sharing connections, the group of subscription {@code subscription}, over every topic. */
    String sharedGroupName(int subscription) {
        return plan.runId() + "-s" + subscription;
    }

    private KafkaConsumer<byte[], ByteBuffer> consumer(String group, String clientId) {
        // the topic is new: reading from its start misses nothing, even if the group settles late
        Map<String, String> ours = new HashMap<>(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, Boolean.toString(settings.commitMode() == CommitMode.AUTO)));
        if (settings.isolationLevel() != null) {
            ours.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, settings.isolationLevel());
        }
        Properties props = consumerProps(group, clientId, ours);
        // the value as a view of the fetched bytes (KIP-863): no array allocated and copied per record
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteBufferDeserializer());
    }

    private KafkaShareConsumer<byte[], ByteBuffer> shareConsumer(String group, String clientId) {
        // each record acknowledged on its own, ACCEPT or RELEASE, rather than all of a poll implicitly by the next
        Properties props = consumerProps(group, clientId,
                Map.of(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit"));
        return new KafkaShareConsumer<>(props, new ByteArrayDeserializer(), new ByteBufferDeserializer());
    }

    /** A consumer's properties: the common ones, its group and id, {@code ours}, then --consumer-prop, which wins. */
    private Properties consumerProps(String group, String clientId, Map<String, String> ours) {
        Properties props = new Properties();
        props.putAll(settings.commonClientProps());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.putAll(ours);
        props.putAll(settings.consumerProps());
        return props;
    }

    /**
     * A share group delivers at least once and in no promised order; with it, what Kafka's delivery
     * count saw, beside the duplicates the core counts.
     */
    @Override
    public DeliveryPromise deliveryPromise() {
        if (!share.share()) {
            return DeliveryPromise.ORDERED;
        }
        return new DeliveryPromise(false, true, "Kafka share group: at-least-once, no order promised",
                String.format(Locale.US, "Kafka's delivery count: %,d records received more than once, "
                        + "%,d released on purpose%s", shareCounts.redelivered.get(), shareCounts.released.get(),
                        share.releaseEvery() > 0 ? " (one first delivery in " + share.releaseEvery() + ")" : ""));
    }

    /**
     * The group has settled: every consumer was assigned partitions (possibly none) in the same
     * generation, so none is still joining, and together they hold every partition of the group's
     * topics. A consumer joining after the run started would trigger a rebalance that pauses
     * delivery mid-run.
     */
    private static boolean groupReady(List<KafkaPoller> members, int partitions) {
        int total = 0;
        int generation = -1;
        for (KafkaPoller s : members) {
            if (s.generation() < 0 || (generation >= 0 && s.generation() != generation)) {
                return false;
            }
            generation = s.generation();
            total += s.assignedPartitions();
        }
        return total == partitions;
    }

    /** The record key of each message: the default partitioner spreads records over partitions by its hash. */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        this.keyBytes = recordKeys.keyBytes();
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        String streamTopic = plan.topicName(plan.topicOf(streamId));
        if (settings.transactions() != null) {
            // two transactional producers of the stream's own: a transaction belongs to one producer
            return new TransactionalPublisher(id -> producer("msgbench-producer-" + streamId + id.substring(id.length() - 2),
                    Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id)),
                    TransactionalPublisher.ids(plan.runId(), streamId), streamTopic, acks, settings.transactions(), keyBytes,
                    "msgbench-txn-" + streamId);
        }
        if (plan.producersShareConnections()) {
            // the engine publishes every stream of a connection from one thread, and KafkaProducer is thread-safe anyway
            SharedClients<KafkaProducer<byte[], byte[]>>.Lease lease = sharedProducers.acquire(
                    plan.producerConnectionOf(streamId), connection -> producer("msgbench-producer-connection-" + connection));
            return new KafkaPublisher(lease.client(), streamTopic, acks, acknowledges(), settings.flushEachSend(), keyBytes,
                    lease);
        }
        return new KafkaPublisher(producer("msgbench-producer-" + streamId), streamTopic, acks, acknowledges(),
                settings.flushEachSend(), keyBytes);
    }

    private KafkaProducer<byte[], byte[]> producer(String clientId) {
        return producer(clientId, Map.of());
    }

    /** @param ours settings of the run's own beside acks (a transactional id), under --producer-prop */
    private KafkaProducer<byte[], byte[]> producer(String clientId, Map<String, String> ours) {
        Properties props = new Properties();
        props.putAll(settings.commonClientProps());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, settings.producerAcks());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.putAll(ours);
        props.putAll(producerOverrides);
        props.putAll(settings.producerProps());
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private boolean acknowledges() {
        return settings.acks() != Acks.NONE;
    }

    /**
     * The leader of partition 0, numbered by its place in the bootstrap list: a local cluster's
     * list ({@code LocalKafkaCluster.url()}) names node 1 first, and each node advertises itself at
     * the address it is listed under. Empty while the partition has no leader, or when the leader
     * is not in the list (a --bootstrap-servers that names other hosts or only some brokers).
     */
    @Override
    public OptionalInt leaderNode() throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(settings.connectTimeout().toMillis(), TimeUnit.MILLISECONDS).get(topic);
        return listedNumber(description.partitions().get(0).leader());
    }

    /** A node by its place in the bootstrap list, from 1, as {@link #leaderNode} numbers them; empty when not listed. */
    private OptionalInt listedNumber(Node node) {
        if (node == null || node.isEmpty()) {
            return OptionalInt.empty();
        }
        List<String> listed = List.of(settings.bootstrapServers().split(","));
        int index = listed.stream().map(String::strip).toList().indexOf(node.host() + ":" + node.port());
        return index < 0 ? OptionalInt.empty() : OptionalInt.of(index + 1);
    }

    /**
     * The transaction coordinator of stream 0's first transactional id, numbered as {@link
     * #leaderNode} numbers the leader: the broker leading that id's partition of
     * __transaction_state. Empty without --transactions, or before the id's first transaction.
     */
    @Override
    public OptionalInt coordinatorNode() throws Exception {
        if (settings.transactions() == null || plan == null) {
            return OptionalInt.empty();
        }
        String id = TransactionalPublisher.ids(plan.runId(), 0)[0];
        long timeoutMs = settings.connectTimeout().toMillis();
        int coordinator = admin.describeTransactions(List.of(id)).description(id).get(timeoutMs, TimeUnit.MILLISECONDS)
                .coordinatorId();
        for (Node node : admin.describeCluster().nodes().get(timeoutMs, TimeUnit.MILLISECONDS)) {
            if (node.id() == coordinator) {
                return listedNumber(node);
            }
        }
        return OptionalInt.empty();
    }

    /** Consumers in read_uncommitted read an aborted transaction's records: with read_committed none may arrive. */
    @Override
    public String abortedDeliveryHint() {
        return "read_uncommitted".equals(settings.effectiveIsolationLevel())
                ? "consumers in isolation.level read_uncommitted read the records of aborted transactions" : null;
    }

    /** Messages stay stored until consumed, so consumers that start later read them all. */
    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", settings.acks().flagValue());
        durability.put("replicationFactor", replicationFactor);
        durability.putAll(topicDurability);
        durability.remove("max.message.bytes");
        durability.put("enable.idempotence", settings.producerProps().getOrDefault(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                settings.acks() == Acks.ALL ? "client default (on)"
                        : "client default (off with acks=" + settings.producerAcks() + ")"));
        durability.put("consumerCommit", share.share() ? "share group: each record acknowledged (ACCEPT), explicit"
                : settings.commitMode().label());
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("bootstrapServers", settings.bootstrapServers());
        s.put("security", settings.security().toString()
                + (settings.security().hasLogin() ? " (" + settings.saslMechanism() + ")" : ""));
        s.put("clientConfigKeys", List.copyOf(settings.clientProps().keySet()));
        s.put("topic", topic);
        if (plan != null && plan.topics() * plan.subscriptionsPerTopic() > 1) {
            s.put("topics", topicNames.size() == 1 ? topic : topic + " .. " + topicNames.get(topicNames.size() - 1));
            s.put(share.share() ? "shareGroups" : "consumerGroups", plan.consumersShareConnections()
                    ? "one per subscription number, over every topic: " + plan.runId() + "-s<subscription>"
                    : plan.subscriptionsPerTopic() == 1 ? "one per topic, named as it"
                    : "one per subscription: <topic>-s<subscription>");
        }
        if (plan != null && plan.producersShareConnections()) {
            s.put("producerClients", "one KafkaProducer per producer connection (" + plan.producerConnections()
                    + "), shared by its streams");
        }
        if (plan != null && plan.consumersShareConnections()) {
            s.put("consumerClients", "one KafkaConsumer per consumer connection (" + plan.consumerConnections()
                    + "), reading the topics of its consumers");
        }
        s.put("partitions", settings.partitions());
        s.put("consumer", share.share() ? "share group (KafkaShareConsumer)" : "consumer group (KafkaConsumer)");
        if (share.share()) {
            s.put("shareVersion", shareVersion);
        }
        if (share.releaseEvery() > 0) {
            s.put("shareReleaseEvery", share.releaseEvery());
        }
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": the producer record's key, partitioned by its hash");
        }
        s.put("isolationLevel", settings.effectiveIsolationLevel());
        if (settings.transactions() != null) {
            KafkaTransactions t = settings.transactions();
            Map<String, Object> transactions = new LinkedHashMap<>();
            transactions.put("size", t.label());
            transactions.put("abortEvery", t.abortEvery());
            transactions.put("producersPerStream", 2);
            transactions.put("closesUnpacedAt", "half of workload.maxOutstanding in messages (throughput), when that "
                    + "comes first: one producer takes the stream's sends while the other commits");
            transactions.put("transactionalIds", plan == null ? null : plan.runId() + "-txn-<stream>-a and -b");
            transactions.put("commitTime", "commitTransaction's call to its return");
            s.put("transactions", transactions);
        }
        s.put("pollTimeoutMs", settings.pollTimeout().toMillis());
        s.put("producerFlush", settings.flushEachSend() ? "each-send" : "none");
        s.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compressionType());
        Map<String, String> producerProps = new LinkedHashMap<>(producerOverrides);
        producerProps.putAll(settings.producerProps());
        s.put("producerProps", producerProps);
        s.put("consumerProps", settings.consumerProps());
        s.put("maxMessageBytes", topicDurability.get("max.message.bytes"));
        return new SystemInfo("kafka", "kafka-clients " + AppInfoParser.getVersion(),
                brokerVersion == null ? "unknown" : brokerVersion, durability, s, acknowledges());
    }

    /** The producers' codec as in effect: --compression or a client property, else the client's default. */
    private String compressionType() {
        String given = settings.producerProps().get(ProducerConfig.COMPRESSION_TYPE_CONFIG);
        if (given == null) {
            given = settings.clientProps().get(ProducerConfig.COMPRESSION_TYPE_CONFIG);
        }
        return given != null ? given : "none (the client's default)";
    }

    /**
     * The size of the run's partition logs on the brokers (describeLogDirs): the record batches as
     * the producers' codec left them (the topic keeps compression.type=producer), with Kafka's batch
     * and record framing; one copy of each partition, its largest replica. Chosen over the broker's
     * BytesInPerSec, which needs JMX on the broker and counts every topic and the replication too.
     */
    @Override
    public BrokerBytes brokerBytes() throws Exception {
        if (admin == null || topicNames.isEmpty()) {
            return null;
        }
        long timeoutMs = settings.connectTimeout().toMillis();
        List<Integer> brokers = admin.describeCluster().nodes().get(timeoutMs, TimeUnit.MILLISECONDS).stream()
                .map(Node::id).toList();
        Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(brokers).allDescriptions()
                .get(timeoutMs, TimeUnit.MILLISECONDS);
        Set<String> topics = Set.copyOf(topicNames);
        Map<TopicPartition, Long> largest = new HashMap<>();
        for (Map<String, LogDirDescription> byDir : dirs.values()) {
            for (LogDirDescription dir : byDir.values()) {
                dir.replicaInfos().forEach((partition, replica) -> {
                    if (topics.contains(partition.topic())) {
                        largest.merge(partition, replica.size(), Math::max);
                    }
                });
            }
        }
        return new BrokerBytes("kafka: the run's partition logs (describeLogDirs, one replica each)",
                largest.values().stream().mapToLong(Long::longValue).sum());
    }

    @Override
    public void close() throws Exception {
        try {
            // left open only by a run that failed before closing its publishers and subscribers
            sharedConsumers.closeAll("closing Kafka's shared consumers");
        } finally {
            try {
                sharedProducers.closeAll("closing Kafka's shared producers");
            } finally {
                deleteTopicsAndDisconnect();
            }
        }
    }

    private void deleteTopicsAndDisconnect() throws Exception {
        if (admin == null) {
            return;
        }
        try {
            if (topicCreated) {
                admin.deleteTopics(topicNames).all().get(10, TimeUnit.SECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            // a broker that is gone (stopped on a full disk, killed and never restarted) keeps its
            // topics: said in one line, not as a bug
            String topics = topicNames.size() == 1 ? "topic " + topicNames.get(0)
                    : "topics " + topicNames.get(0) + " and " + (topicNames.size() - 1) + " more";
            throw new UserError("the run's " + topics + " " + (topicNames.size() == 1 ? "was" : "were")
                    + " not deleted: " + rootMessage(e), e);
        } finally {
            admin.close(java.time.Duration.ofSeconds(5));
            admin = null;
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /** The subscribers created so far; for tests. */
    Collection<KafkaSubscriber> subscribers() {
        return new ArrayList<>(subscribers);
    }
}
