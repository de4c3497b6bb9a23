package dev.msgbench.redis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.redis.direct.DirectClient;
import dev.msgbench.redis.direct.DirectProducerConnection;
import dev.msgbench.redis.direct.DirectSharedPubSub;
import dev.msgbench.redis.resp.Resp;
import dev.msgbench.redis.resp.RespConnection;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Redis pub/sub: a channel per producer stream, PUBLISH and SUBSCRIBE; with record keys a channel
 * per key under the stream's, read with PSUBSCRIBE on a pattern per stream. Redis keeps nothing: a
 * message reaches the subscribers connected at that moment or no one, which is why the engine
 * starts publishing only after the server counts every subscription.
 */
public final class RedisPubSubSystem implements MessagingSystem {

    public static final String NAME = "redis";
    private static final long LARGE_MESSAGE_BYTES = 256 * 1024;

    private final RedisSettings settings;
    private RedisConnector connector;
    private StatefulRedisConnection<byte[], byte[]> admin;
    private ServerFacts facts;
    private Routing routing;
    private RunPlan plan;
    private String runIdAtStart;
    private RecordKeys keys = RecordKeys.NONE;
    private final SharedConnections<ProducerConnection> producerConnections = new SharedConnections<>();
    private final SharedConnections<DirectProducerConnection> directProducerConnections = new SharedConnections<>();
    private final SharedConnections<SharedPubSubConnection> consumerConnections = new SharedConnections<>();
    private final SharedConnections<DirectSharedPubSub> directConsumerConnections = new SharedConnections<>();

    public RedisPubSubSystem(RedisSettings settings) {
        this.settings = settings;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        if (settings.acks() == RedisAcks.REPLICAS) {
            throw new UserError(noReplicaAcks());
        }
        this.plan = runPlan;
        this.routing = new Routing(runPlan);
        this.connector = new RedisConnector(settings);
        this.admin = connector.connect("msgbench-admin");
        this.facts = ServerFacts.read(connector.url(), admin.async());
        this.runIdAtStart = runId();
        facts.checkMessageSize(runPlan.messageSizeBytes());
        long hard = facts.pubsubHardLimit();
        if (hard > 0 && runPlan.messageSizeBytes() > hard) {
            throw new UserError("--size " + runPlan.messageSizeBytes() + " B: Redis disconnects a subscriber as soon as "
                    + hard + " bytes wait for it (client-output-buffer-limit pubsub); raise it: --broker-prop "
                    + "client-output-buffer-limit=\"pubsub 0 0 0\" for a local broker");
        }
    }

    /**
     * Settings a local broker needs for messages of {@code messageSizeBytes}: empty for messages up
     * to 256 KiB. Redis disconnects a subscriber 32 MB behind (client-output-buffer-limit pubsub
     * 32mb 8mb 60): 32 messages of 1 MiB, a third of a second at E3's 100 msg/s, which a JVM
     * subscriber still compiling its read path falls behind by. Raised to 128 messages hard and 32
     * messages for 60 s, a size limit like Kafka's message.max.bytes, not a tuning.
     */
    public static Map<String, String> localBrokerArgs(long messageSizeBytes) {
        if (messageSizeBytes <= LARGE_MESSAGE_BYTES) {
            return Map.of();
        }
        return Map.of("client-output-buffer-limit", "pubsub " + 128 * messageSizeBytes + " " + 32 * messageSizeBytes + " 60");
    }

    /** The one message for --acks all, shared with the command line's early check. */
    public static String noReplicaAcks() {
        return "--acks all has no equivalent in Redis pub/sub: it keeps no message, so no replica holds one; "
                + "use --acks 1, or --system redis-streams";
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        List<byte[]> channels = keys.isNone() ? routing.keysOf(index) : List.of();
        List<byte[]> patterns = keys.isNone() ? List.of() : routing.keyPatternsOf(index);
        if (plan.consumersShareConnections()) {
            return sharedSubscriber(index, channels, patterns, sink);
        }
        if (settings.client() == RedisClientKind.DIRECT) {
            RespConnection connection = connector.connectDirect("msgbench-consumer-" + index);
            try {
                return DirectClient.pubSubSubscriber(connection, channels, patterns, sink, this::lostConnectionCause);
            } catch (IOException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }
        return new PubSubSubscriber(connector, connector.connectPubSub("msgbench-consumer-" + index), channels, patterns,
                sink, this::lostConnectionCause, () -> subscribed(channels), this::serverRestarted);
    }

    /**
     * Consumer {@code index} on the connection it shares with the consumers of its subscription and
     * member number on other topics: the connection subscribes its channels too, and routes their
     * messages to its sink.
     */
    private Subscriber sharedSubscriber(int index, List<byte[]> channels, List<byte[]> patterns, MessageSink sink)
            throws Exception {
        int number = plan.consumerConnectionOf(index);
        String name = "msgbench-consumers-" + number;
        List<Integer> streams = routing.streamsOf(index);
        if (settings.client() == RedisClientKind.DIRECT) {
            return directConsumerConnections.get(number, n -> new DirectSharedPubSub(connector.connectDirect(name),
                    plan.producers(), Routing::streamOf, this::lostConnectionCause))
                    .subscribe(streams, channels, patterns, sink);
        }
        return consumerConnections.get(number, n -> new SharedPubSubConnection(connector, connector.connectPubSub(name),
                plan.producers(), this::lostConnectionCause, this::serverRestarted))
                .subscribe(streams, channels, patterns, sink, () -> subscribed(channels));
    }

    private String lostConnectionCause() {
        return settings.lostConnectionCause(facts.config().getOrDefault("client-output-buffer-limit", "(unknown)"));
    }

    /**
     * Whether the server now answering is another process than at the start (its run_id changed):
     * a restart, which a subscriber rides through, rather than the server cutting it off.
     */
    private boolean serverRestarted() {
        try {
            if (!connector.awaitOpen(admin)) {
                return false;
            }
            return !runIdAtStart.equals(runId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException e) {
            // the server is gone again, or refuses: not a restart the subscriber could ride through
            return false;
        }
    }

    /** Redis names each start of a server with a random run_id. */
    private String runId() throws InterruptedException {
        return String.valueOf(Resp.infoField(ServerFacts.await(admin.async().info("server"), "INFO server"), "run_id"));
    }

    private boolean subscribed(List<byte[]> channels) {
        if (channels.isEmpty()) {
            return true;
        }
        try {
            Map<byte[], Long> counts = ServerFacts.await(admin.async().pubsubNumsub(channels.toArray(new byte[0][])),
                    "PUBSUB NUMSUB");
            // every subscription of the topic subscribes to each of its channels once
            int subscriptions = plan.subscriptionsPerTopic();
            return counts.size() == channels.size()
                    && counts.values().stream().allMatch(n -> n != null && n >= subscriptions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Each message goes to the channel of its key under its stream's, and subscribers read them
     * with a pattern: the server matches every PUBLISH against the patterns, as a keyed pub/sub
     * application makes it. One connection per subscription still reads a stream, in order.
     */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        return null;
    }

    /** The channel of stream {@code streamId}, or with record keys its channel of each key, by key. */
    private byte[][] channels(int streamId) {
        return keys.isNone() ? new byte[][] {routing.key(streamId)} : routing.keyChannels(streamId, keys);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        if (plan.producersShareConnections()) {
            return sharedPublisher(streamId, acks);
        }
        String name = "msgbench-producer-" + streamId;
        if (settings.client() == RedisClientKind.DIRECT) {
            return DirectClient.pubSubPublisher(connector.connectDirect(name), channels(streamId),
                    routing.name(streamId), acks, settings.acks().toAcks(),
                    InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        }
        return new PubSubPublisher(new ProducerConnection(connector.connect(name)).use(), channels(streamId),
                routing.name(streamId), acks, settings.acks(),
                new InFlight(settings.maxInFlight(), plan.messageSizeBytes()));
    }

    /** Stream {@code streamId} on the connection it shares with the other streams of its thread. */
    private Publisher sharedPublisher(int streamId, AckListener acks) throws Exception {
        int number = plan.producerConnectionOf(streamId);
        String name = "msgbench-producers-" + number;
        int capacity = InFlight.shareOnConnection(settings.maxInFlight(), plan.messageSizeBytes(),
                routing.streamsOnConnection(number).size());
        if (settings.client() == RedisClientKind.DIRECT) {
            DirectProducerConnection shared = directProducerConnections.get(number, n -> DirectClient.pubSubConnection(
                    connector.connectDirect(name), routing.streamsOnConnection(n).stream().map(this::channels).toList(),
                    capacity));
            return DirectClient.pubSubPublisher(shared, routing.placeOnConnection(streamId), routing.name(streamId), acks,
                    settings.acks().toAcks(), capacity);
        }
        ProducerConnection shared = producerConnections.get(number, n -> new ProducerConnection(connector.connect(name)));
        return new PubSubPublisher(shared.use(), channels(streamId), routing.name(streamId), acks, settings.acks(),
                new InFlight(capacity));
    }

    /**
     * Node 1: every client of the run talks to the server at the URL, which for a local broker is
     * node 1, the primary (its replicas only copy it).
     */
    @Override
    public OptionalInt leaderNode() {
        return OptionalInt.of(1);
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = facts.durability(settings.acks(), settings.acks() == RedisAcks.NONE
                ? "none: replies are not awaited or counted" : "the server's reply to PUBLISH (a subscriber got it)");
        durability.put("delivery", "at-most-once (pub/sub keeps nothing)");
        // a subscriber that falls further behind is disconnected, and what it missed is lost
        durability.put("client-output-buffer-limit pubsub", pubsubLimit());
        Map<String, Object> s = new LinkedHashMap<>(facts.settings());
        s.put("channels", routing.describe());
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": a channel per key under the stream's (<stream channel>:k<key>), "
                    + "read with PSUBSCRIBE <stream channel>:*");
        }
        s.put("tcpNoDelay", true);
        s.put("protocol", RedisConnector.PROTOCOL.name());
        s.put("maxInFlightPerProducer", InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        s.put("client", settings.client().label());
        putSharing(plan, s, InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        String client = settings.client() == RedisClientKind.DIRECT
                ? "msgbench direct RESP client"
                : RedisConnector.clientVersion();
        return new SystemInfo(NAME, client, facts.version(), durability, s,
                settings.acks() != RedisAcks.NONE);
    }

    private String pubsubLimit() {
        String[] parts = facts.config().getOrDefault("client-output-buffer-limit", "").trim().split("\\s+");
        for (int i = 0; i + 3 < parts.length; i++) {
            if (parts[i].equals("pubsub")) {
                return parts[i + 1] + " " + parts[i + 2] + " " + parts[i + 3];
            }
        }
        return "unknown";
    }

    /**
     * With shared connections, how many, and the in-flight limit per connection that the streams of
     * each share ({@link InFlight#shareOf}): results without them stay as they were.
     */
    static void putSharing(RunPlan plan, Map<String, Object> s, int maxInFlight) {
        if (plan.producersShareConnections()) {
            s.put("producerConnections", plan.producerConnections());
            // each stream has its share of the connection's limit; the streams of connection 0 are the most
            s.put("maxInFlightPerProducerConnection", maxInFlight);
            s.put("maxInFlightPerProducer", InFlight.shareOf(maxInFlight,
                    (plan.producers() + plan.producerConnections() - 1) / plan.producerConnections()));
        }
        if (plan.consumersShareConnections()) {
            s.put("consumerConnections", plan.consumerConnections());
        }
    }

    @Override
    public void close() throws Exception {
        List<Exception> failures = new ArrayList<>();
        for (SharedConnections<?> shared : List.of(directProducerConnections, directConsumerConnections,
                producerConnections, consumerConnections)) {
            shared.closeAll(failures);
        }
        if (admin != null) {
            try {
                admin.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (connector != null) {
            try {
                connector.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            Exception first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }
}
