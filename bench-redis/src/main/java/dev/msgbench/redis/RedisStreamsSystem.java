package dev.msgbench.redis;

import java.nio.charset.StandardCharsets;
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
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Redis Streams: a stream key per producer stream, trimmed to about --maxlen entries by every
 * XADD; with record keys each entry carries its key in a field of its own (Streams route nothing
 * by key); a consumer group per key, created at the end of the (new, empty) stream before anything
 * is sent, so no entry is missed however late a consumer starts reading. The keys are deleted
 * when the run ends.
 */
public final class RedisStreamsSystem implements MessagingSystem {

    public static final String NAME = "redis-streams";
    static final String GROUP = "msgbench";

    private final RedisSettings settings;
    private final StreamSettings streams;
    private RedisConnector connector;
    private StatefulRedisConnection<byte[], byte[]> admin;
    private ServerFacts facts;
    private Routing routing;
    private RunPlan plan;
    private final List<byte[]> created = new ArrayList<>();
    private RecordKeys keys = RecordKeys.NONE;
    /** Each record key's name, by key, built once; null without keys. */
    private byte[][] keyNames;
    private final SharedConnections<ProducerConnection> producerConnections = new SharedConnections<>();
    private final SharedConnections<DirectProducerConnection> directProducerConnections = new SharedConnections<>();
    private final SharedConnections<StreamSubscriber> consumerConnections = new SharedConnections<>();

    public RedisStreamsSystem(RedisSettings settings, StreamSettings streams) {
        this.settings = settings;
        this.streams = streams;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        this.routing = new Routing(runPlan);
        this.connector = new RedisConnector(settings);
        this.admin = connector.connect("msgbench-admin");
        this.facts = ServerFacts.read(connector.url(), admin.async());
        facts.requirePrimary();
        facts.requireReplicasFor(settings.acks());
        facts.checkMessageSize(runPlan.messageSizeBytes());
        for (byte[] key : routing.allKeys()) {
            boolean made = false;
            for (int k = 0; k < runPlan.subscriptionsPerTopic(); k++) {
                try {
                    ServerFacts.await(admin.async().xgroupCreate(StreamOffset.latest(key), routing.group(GROUP, k),
                            XGroupCreateArgs.Builder.mkstream(true)), "XGROUP CREATE " + new String(key, StandardCharsets.UTF_8));
                    made = true;
                } catch (UserError e) {
                    // an echo responder in another process made it first: use it, and leave its deletion to that side
                    if (e.getCause() == null || e.getCause().getMessage() == null
                            || !e.getCause().getMessage().startsWith("BUSYGROUP")) {
                        throw e;
                    }
                }
            }
            if (made) {
                created.add(key);
            }
        }
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        if (plan.consumersShareConnections()) {
            // the consumers of one connection share their subscription number, and so its group
            int number = plan.consumerConnectionOf(index);
            String name = "msgbench-consumers-" + number;
            return consumerConnections.get(number, n -> new StreamSubscriber(name, connector, connector.connect(name),
                    routing.group(GROUP, plan.subscriptionOfConsumer(index)), streams, keys.isNone() ? 1 : 2,
                    plan.producers())).add(routing.streamsOf(index), routing.keysOf(index), sink);
        }
        return new StreamSubscriber(index, connector, connector.connect("msgbench-consumer-" + index),
                routing.keysOf(index), routing.group(GROUP, plan.subscriptionOfConsumer(index)), streams,
                keys.isNone() ? 1 : 2, sink);
    }

    /**
     * Redis routes nothing by key: each entry carries its key as a field before the message's, so
     * the key costs the server and the wire what its bytes cost, as a keyed Streams application's do.
     */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        this.keyNames = recordKeys.keyBytes();
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        if (plan.producersShareConnections()) {
            return sharedPublisher(streamId, acks);
        }
        if (settings.client() == RedisClientKind.DIRECT) {
            return DirectClient.streamPublisher(connector.connectDirect("msgbench-producer-" + streamId),
                    routing.key(streamId), routing.name(streamId), streams.maxlen(), StreamPublisher.FIELD,
                    StreamPublisher.KEY_FIELD, keyNames, acks,
                    settings.acks().toAcks(), facts.connectedReplicas(), settings.waitTimeout(),
                    InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        }
        return new StreamPublisher(new ProducerConnection(connector.connect("msgbench-producer-" + streamId)).use(),
                routing.key(streamId), keyNames, streams.maxlen(), acks, settings.acks(), facts.connectedReplicas(),
                settings.waitTimeout(), new InFlight(settings.maxInFlight(), plan.messageSizeBytes()));
    }

    /** Stream {@code streamId} on the connection it shares with the other streams of its thread. */
    private Publisher sharedPublisher(int streamId, AckListener acks) throws Exception {
        int number = plan.producerConnectionOf(streamId);
        String name = "msgbench-producers-" + number;
        int capacity = InFlight.shareOnConnection(settings.maxInFlight(), plan.messageSizeBytes(),
                routing.streamsOnConnection(number).size());
        if (settings.client() == RedisClientKind.DIRECT) {
            DirectProducerConnection shared = directProducerConnections.get(number, n -> DirectClient.streamConnection(
                    connector.connectDirect(name), routing.streamsOnConnection(n).stream().map(routing::key).toList(),
                    streams.maxlen(), StreamPublisher.FIELD, StreamPublisher.KEY_FIELD, keyNames,
                    settings.acks().toAcks(), facts.connectedReplicas(), settings.waitTimeout(), capacity));
            return DirectClient.streamPublisher(shared, routing.placeOnConnection(streamId), routing.name(streamId), acks,
                    settings.acks().toAcks(), facts.connectedReplicas(), settings.waitTimeout(), capacity);
        }
        ProducerConnection shared = producerConnections.get(number, n -> new ProducerConnection(connector.connect(name)));
        return new StreamPublisher(shared.use(), routing.key(streamId), keyNames, streams.maxlen(), acks, settings.acks(),
                facts.connectedReplicas(), settings.waitTimeout(), new InFlight(capacity));
    }

    /** Entries stay in the stream (up to --maxlen), pending for the group created in prepare. */
    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public String lossHint() {
        return "each stream keeps about " + streams.maxlen() + " entries (MAXLEN ~), and those trimmed before a "
                + "consumer read them are lost: raise --maxlen above what consumers fall behind by";
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
        Map<String, Object> durability = facts.durability(settings.acks(), acknowledgement());
        durability.put("maxlen", "~ " + streams.maxlen());
        durability.put("consumerAck", "XACK per read (up to " + streams.readCount() + " entries per key), pipelined, not awaited");
        durability.put("delivery", "at-least-once while an entry is within maxlen (consumer group, XACK)");
        durability.put("maxmemory-policy", facts.config().getOrDefault("maxmemory-policy", "unknown"));
        Map<String, Object> s = new LinkedHashMap<>(facts.settings());
        s.put("streamKeys", routing.describe());
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": a field of each entry (k <key>, before m <message>); Redis Streams route "
                    + "nothing by key, so the key costs only its bytes");
        }
        s.put("consumerGroup", plan.subscriptionsPerTopic() == 1 ? GROUP
                : GROUP + "-s<subscription>, one per subscription on every stream key");
        s.put("xreadCount", streams.readCount());
        s.put("xreadBlockMs", streams.block().toMillis());
        s.put("tcpNoDelay", true);
        s.put("protocol", RedisConnector.PROTOCOL.name());
        s.put("maxInFlightPerProducer", InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        if (settings.acks() == RedisAcks.REPLICAS) {
            s.put("waitTimeoutMs", settings.waitTimeout().toMillis());
        }
        s.put("client", settings.client().label());
        RedisPubSubSystem.putSharing(plan, s, InFlight.limit(settings.maxInFlight(), plan.messageSizeBytes()));
        // consumers read with lettuce either way: XREADGROUP's nested replies are not the direct client's
        String client = settings.client() == RedisClientKind.DIRECT
                ? "msgbench direct RESP client (producers), " + RedisConnector.clientVersion() + " (consumers)"
                : RedisConnector.clientVersion();
        return new SystemInfo(NAME, client, facts.version(), durability, s,
                settings.acks() != RedisAcks.NONE);
    }

    private String acknowledgement() {
        switch (settings.acks()) {
            case NONE:
                return "none: replies are not awaited or counted";
            case SERVER:
                return "the server's reply to XADD (in its memory; on disk as appendfsync says)";
            case REPLICAS:
                return "the reply to WAIT " + facts.connectedReplicas() + " after each XADD (every replica has it)";
            default:
                throw new AssertionError(settings.acks());
        }
    }


    /** Deletes the run's stream keys (and with them the group), then disconnects. */
    @Override
    public void close() throws Exception {
        // before the keys go: a consumer still reading would make them again (createGroupsAgain)
        List<Exception> failures = new ArrayList<>();
        for (SharedConnections<?> shared : List.of(directProducerConnections, producerConnections, consumerConnections)) {
            shared.closeAll(failures);
        }
        Exception failure = null;
        for (Exception e : failures) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        try {
            if (admin != null && !created.isEmpty()) {
                ServerFacts.await(admin.async().del(created.toArray(new byte[0][])), "DEL of the run's stream keys");
            }
        } catch (Exception e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        for (AutoCloseable c : new AutoCloseable[] {admin, connector}) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
