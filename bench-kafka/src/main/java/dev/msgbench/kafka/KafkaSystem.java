package dev.msgbench.kafka;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.apache.kafka.common.utils.AppInfoParser;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
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
 * consumers, in a group per subscription number over every topic.
 */
public final class KafkaSystem implements MessagingSystem {

    /** Record batch and record overhead that a message needs beyond its value, with margin. */
    private static final int RECORD_OVERHEAD_BYTES = 512;
    private static final int CLIENT_DEFAULT_MAX_REQUEST_BYTES = 1_048_576;
    private static final List<String> DURABILITY_TOPIC_CONFIGS = List.of(
            "min.insync.replicas", "flush.messages", "flush.ms", "unclean.leader.election.enable");

    private final KafkaSettings settings;
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
        this.settings = settings;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
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
        // one group per subscription, each reading the whole topic; one subscription keeps the topic's name
        String group = plan.subscriptionsPerTopic() == 1 ? subscribed
                : plan.subscriptionName(plan.topicOfConsumer(index), plan.subscriptionOfConsumer(index));
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
        Properties props = new Properties();
        props.putAll(settings.commonClientProps());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // the topic is new: reading from its start misses nothing, even if the group settles late
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, Boolean.toString(settings.commitMode() == CommitMode.AUTO));
        props.putAll(settings.consumerProps());
        // the value as a view of the fetched bytes (KIP-863): no array allocated and copied per record
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteBufferDeserializer());
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
        Properties props = new Properties();
        props.putAll(settings.commonClientProps());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, settings.producerAcks());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
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
        Node leader = description.partitions().get(0).leader();
        if (leader == null || leader.isEmpty()) {
            return OptionalInt.empty();
        }
        List<String> listed = List.of(settings.bootstrapServers().split(","));
        int index = listed.stream().map(String::strip).toList().indexOf(leader.host() + ":" + leader.port());
        return index < 0 ? OptionalInt.empty() : OptionalInt.of(index + 1);
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
        durability.put("consumerCommit", settings.commitMode().label());
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("bootstrapServers", settings.bootstrapServers());
        s.put("security", settings.security().toString()
                + (settings.security().hasLogin() ? " (" + settings.saslMechanism() + ")" : ""));
        s.put("clientConfigKeys", List.copyOf(settings.clientProps().keySet()));
        s.put("topic", topic);
        if (plan != null && plan.topics() * plan.subscriptionsPerTopic() > 1) {
            s.put("topics", topicNames.size() == 1 ? topic : topic + " .. " + topicNames.get(topicNames.size() - 1));
            s.put("consumerGroups", plan.consumersShareConnections()
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
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": the producer record's key, partitioned by its hash");
        }
        s.put("pollTimeoutMs", settings.pollTimeout().toMillis());
        s.put("producerFlush", settings.flushEachSend() ? "each-send" : "none");
        Map<String, String> producerProps = new LinkedHashMap<>(producerOverrides);
        producerProps.putAll(settings.producerProps());
        s.put("producerProps", producerProps);
        s.put("consumerProps", settings.consumerProps());
        s.put("maxMessageBytes", topicDurability.get("max.message.bytes"));
        return new SystemInfo("kafka", "kafka-clients " + AppInfoParser.getVersion(),
                brokerVersion == null ? "unknown" : brokerVersion, durability, s, acknowledges());
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
