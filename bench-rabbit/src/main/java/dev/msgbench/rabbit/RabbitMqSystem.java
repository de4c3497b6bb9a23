package dev.msgbench.rabbit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.impl.ClientVersion;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.ShutdownSignalException;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.SharedClients;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * RabbitMQ over AMQP 0-9-1 through amqp-client: one queue per producer stream, named from the run
 * id and reached through the default exchange; consumer c consumes the queues of the streams s with
 * s % consumers == c, so every message is received once and each stream stays in order. Every
 * producer and consumer has its own connection, unless the run's plan has them share connections
 * (--producer-threads, --consumer-connections): then a connection per number, with a channel per
 * producer stream or consumer on it. On a cluster, a quorum queue is replicated on
 * every node (RabbitMQ's default group size) and each connection goes to one of the nodes.
 *
 * <p>With more than one subscription per topic each stream publishes to a fanout exchange of its
 * own, bound to a queue per subscription; with record keys to a topic exchange of its own, with
 * the key as the routing key, its queues bound with {@code #}: the exchange matches every key
 * against the bindings, as a keyed topic-exchange application makes it, and one queue per stream
 * and subscription keeps the stream's order.
 */
public final class RabbitMqSystem implements MessagingSystem {

    private static final int CLOSE_TIMEOUT_MILLIS = 10_000;
    /** Four of the client's recovery attempts. */
    private static final long RECOVERY_WAIT_MILLIS = 4 * RabbitConnections.RECOVERY_INTERVAL_MILLIS;

    private final RabbitSettings settings;
    private final QueuePlacements placements;
    private RabbitConnections connections;
    private Connection admin;
    private RunPlan plan;
    private final List<String> declared = new ArrayList<>();
    /** AMQP's reply code for a queue that is not there. */
    private static final int NOT_FOUND = 404;
    /** A topic exchange's binding that matches every routing key. */
    private static final String EVERY_KEY = "#";
    /** The streams' fanout exchanges (more than one subscription per topic) or topic exchanges (record keys). */
    private final List<String> exchanges = new ArrayList<>();
    private String brokerVersion = "unknown";
    private int frameMax;
    /** A quorum queue's members as the broker reported them after the declare; null when not asked. */
    private Integer membersReadBack;
    private RecordKeys keys = RecordKeys.NONE;
    /** The connections that the streams of one producer connection number share (--producer-threads). */
    private final SharedClients<Connection> sharedProducerConnections = new SharedClients<>(RabbitMqSystem::closeIfOpen);
    /** The connections that the consumers of one consumer connection number share (--consumer-connections). */
    private final SharedClients<Connection> sharedConsumerConnections = new SharedClients<>(RabbitMqSystem::closeIfOpen);
    /** Each record key's name, the routing key of its messages, by key; null without keys. */
    private String[] routingKeys;

    /** For a broker given with --url: where its queues live is not known. */
    public RabbitMqSystem(RabbitSettings settings) {
        this(settings, null);
    }

    /** @param placements where the local broker's queues live, for node=leader and the results; null if unknown */
    public RabbitMqSystem(RabbitSettings settings, QueuePlacements placements) {
        this.settings = settings;
        this.placements = placements;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        connections = new RabbitConnections(settings.url(), settings.security(), runPlan.messageSizeBytes(),
                settings.connectTimeout());
        admin = connections.open("msgbench-admin");
        Object version = admin.getServerProperties().get("version");
        brokerVersion = version == null ? "unknown" : version.toString();
        frameMax = admin.getFrameMax();
        MessageSizeProbe.check(admin, runPlan.runId() + ".size-check", runPlan.messageSizeBytes());
        try (Channel channel = admin.createChannel()) {
            QueueType type = settings.queueType();
            for (int s = 0; s < runPlan.producers(); s++) {
                if (!viaExchange()) {
                    String queue = queueOf(s);
                    if (runPlan.consumers() == 0 && exists(queue)) {
                        // a side that only publishes finds the queue of a reader in another process (an echo
                        // responder, or the measuring side of one): the reader made it and deletes it
                        continue;
                    }
                    channel.queueDeclare(queue, type.durable(), false, false, type.arguments());
                    declared.add(queue);
                    continue;
                }
                // fan-out: the stream's exchange copies each message to a queue per subscription;
                // with keys, a topic exchange whose bindings match every key
                channel.exchangeDeclare(queueOf(s), keyed() ? BuiltinExchangeType.TOPIC : BuiltinExchangeType.FANOUT,
                        type.durable());
                exchanges.add(queueOf(s));
                for (int k = 0; k < runPlan.subscriptionsPerTopic(); k++) {
                    String queue = fansOut() ? queueOf(s, k) : queueOf(s);
                    channel.queueDeclare(queue, type.durable(), false, false, type.arguments());
                    declared.add(queue);
                    channel.queueBind(queue, queueOf(s), keyed() ? EVERY_KEY : "");
                }
            }
        }
        if (placements != null && settings.queueType() == QueueType.QUORUM && !declared.isEmpty()) {
            membersReadBack = placements.placement(declared.get(0)).memberNodes().size();
        }
    }

    /** Whether {@code queue} is there already; asked on a channel of its own, which the broker closes when it is not. */
    private boolean exists(String queue) throws Exception {
        Channel probe = admin.createChannel();
        try {
            probe.queueDeclarePassive(queue);
            return true;
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException closed
                    && closed.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == NOT_FOUND) {
                return false;
            }
            throw e;
        } finally {
            if (probe.isOpen()) {
                probe.close();
            }
        }
    }

    /**
     * The queue of producer stream {@code streamId}, named under its topic; with fan-out, the name of
     * its fanout exchange.
     */
    String queueOf(int streamId) {
        return plan.topicName(plan.topicOf(streamId)) + ".stream-" + streamId;
    }

    /** With fan-out: the queue of subscription {@code subscription} on producer stream {@code streamId}. */
    private String queueOf(int streamId, int subscription) {
        return queueOf(streamId) + ".sub-" + subscription;
    }

    private boolean fansOut() {
        return plan.subscriptionsPerTopic() > 1;
    }

    private boolean keyed() {
        return !keys.isNone();
    }

    /** Whether each stream publishes to an exchange of its own rather than through the default one to its queue. */
    private boolean viaExchange() {
        return fansOut() || keyed();
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        List<String> queues = new ArrayList<>();
        for (int s : plan.streamsOf(index)) {
            queues.add(fansOut() ? queueOf(s, plan.subscriptionOfConsumer(index)) : queueOf(s));
        }
        if (plan.consumersShareConnections()) {
            SharedClients<Connection>.Lease lease = sharedConsumerConnections.acquire(plan.consumerConnectionOf(index),
                    c -> connections.open("msgbench-consumer-connection-" + c));
            try {
                return new RabbitSubscriber(index, lease.client(), lease, queues, settings.queueType(), sink,
                        settings.consumerAck(), settings.prefetch());
            } catch (IOException | RuntimeException e) {
                letGoAfterFailure(lease, e);
                throw e;
            }
        }
        Connection connection = connections.open("msgbench-consumer-" + index);
        try {
            return new RabbitSubscriber(index, connection, null, queues, settings.queueType(), sink,
                    settings.consumerAck(), settings.prefetch());
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(connection, e);
            throw e;
        }
    }

    /** Each message's key becomes its routing key, on a topic exchange per producer stream. */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        this.routingKeys = new String[recordKeys.count()];
        for (int k = 0; k < routingKeys.length; k++) {
            routingKeys[k] = RecordKeys.name(k);
        }
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        String queue = queueOf(streamId);
        PendingConfirms confirms = settings.confirms()
                ? new PendingConfirms(settings.maxUnconfirmed(), acks, queue) : null;
        if (plan.producersShareConnections()) {
            // the engine publishes every stream of a connection from one thread; each has a channel of its own
            SharedClients<Connection>.Lease lease = sharedProducerConnections.acquire(plan.producerConnectionOf(streamId),
                    c -> connections.open("msgbench-producer-connection-" + c));
            try {
                return publisher(lease.client(), lease, queue, confirms);
            } catch (IOException | RuntimeException e) {
                letGoAfterFailure(lease, e);
                throw e;
            }
        }
        Connection connection = connections.open("msgbench-producer-" + streamId);
        try {
            return publisher(connection, null, queue, confirms);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(connection, e);
            throw e;
        }
    }

    /** @param lease null when the connection is the stream's own */
    private RabbitPublisher publisher(Connection connection, AutoCloseable lease, String queue, PendingConfirms confirms)
            throws IOException {
        if (keyed()) {
            return new RabbitPublisher(connection, lease, queue, routingKeys, settings.queueType().persistentMessages(),
                    confirms);
        }
        return fansOut()
                ? new RabbitPublisher(connection, lease, queue, "", settings.queueType().persistentMessages(), confirms)
                : new RabbitPublisher(connection, lease, queue, settings.queueType().persistentMessages(), confirms);
    }

    /**
     * The node that leads stream 0's queue on the suite's local broker, as rabbitmqctl reports it
     * (node 1 of a one-node broker, without asking); empty for a broker given with --url, whose
     * queue's node AMQP does not tell.
     */
    @Override
    public OptionalInt leaderNode() throws Exception {
        if (placements == null) {
            return OptionalInt.empty();
        }
        return placements.nodeCount() == 1 ? OptionalInt.of(1) : placements.placement(declared.get(0)).leaderNode();
    }

    /** Messages stay stored until consumed, so consumers that start later read them all. */
    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public SystemInfo info() {
        QueueType type = settings.queueType();
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", settings.acks().flagValue());
        durability.put("confirms", settings.confirms());
        durability.put("confirmedWhen", confirmedWhen());
        durability.put("queueType", type.serverType());
        durability.put("queueDurable", type.durable());
        durability.put("deliveryMode", type.persistentMessages() ? "persistent" : "transient");
        durability.put("consumerAck", settings.consumerAck().label());
        durability.put("prefetch", settings.consumerAck() == ConsumerAck.MANUAL ? settings.prefetch() : "none (auto ack)");
        durability.put("replicas", replicas());
        durability.put("serverVersion", brokerVersion);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("url", connections == null ? settings.url() : connections.address());
        if (placements != null) {
            s.put("nodes", placements.nodeCount());
        }
        s.put("queueType", type.label());
        if (plan != null && fansOut()) {
            s.put("queues", plan.topicName(0) + ".stream-N.sub-K, one per producer stream and subscription"
                    + (plan.topics() == 1 ? "" : ", named under the stream's topic (" + plan.runId() + "-t<topic>)"));
            s.put("exchange", (keyed() ? "topic" : "fanout") + ", one per producer stream (" + plan.topicName(0)
                    + ".stream-N), bound to its subscriptions' queues" + (keyed() ? " with #" : ""));
        } else {
            s.put("queues", plan == null ? "" : plan.topicName(0) + ".stream-N, one per producer stream"
                    + (plan.topics() == 1 ? "" : ", named under the stream's topic (" + plan.runId() + "-t<topic>)"));
            s.put("exchange", keyed() ? "topic, one per producer stream (" + plan.topicName(0) + ".stream-N), its "
                    + "queue bound with #" : "default (\"\")");
        }
        if (keyed()) {
            s.put("recordKeys", keys + ": the routing key (k<key>) on the stream's topic exchange, whose queues are "
                    + "bound with # (every key)");
        }
        if (plan != null && plan.producersShareConnections()) {
            s.put("producerConnections", plan.producerConnections() + ", each shared by its streams, a channel each");
        }
        if (plan != null && plan.consumersShareConnections()) {
            s.put("consumerConnections", plan.consumerConnections() + ", each shared by its consumers, a channel each");
        }
        s.put("maxUnconfirmed", settings.confirms() ? settings.maxUnconfirmed() : "none (no confirms)");
        s.put("frameMax", frameMax);
        s.put("tcpNoDelay", true);
        return new SystemInfo("rabbitmq", "amqp-client " + ClientVersion.VERSION, brokerVersion, durability, s,
                settings.confirms());
    }

    private String confirmedWhen() {
        if (!settings.confirms()) {
            return "never: no publisher confirms";
        }
        switch (settings.queueType()) {
            case TRANSIENT:
                return "the queue has the message in memory";
            case DURABLE:
                return "the queue has written the message to disk (fsync, batched by the broker)";
            case QUORUM:
                return "a quorum of the queue's replicas has written the message to disk (fsync)";
            default:
                throw new AssertionError(settings.queueType());
        }
    }

    /**
     * A classic queue lives on one node; a quorum queue on as many nodes as the broker reported
     * for it, or, not asked, as the cluster had.
     */
    private Object replicas() {
        if (settings.queueType() != QueueType.QUORUM) {
            return 1;
        }
        if (membersReadBack != null) {
            return membersReadBack;
        }
        return settings.replicas() != null ? settings.replicas()
                : "the cluster's size (default quorum group size; not visible over AMQP)";
    }

    /** Deletes the run's queues, then disconnects; the first failure is thrown, later ones attached. */
    @Override
    public void close() throws Exception {
        if (admin == null) {
            return;
        }
        Exception leftOpen = closeSharedConnections();
        Exception failure = null;
        awaitRecovery(admin);
        if (!declared.isEmpty() && !admin.isOpen()) {
            // e.g. Ctrl+C: the terminal's SIGINT reaches a local node too, and it shuts down
            failure = new UserError("the run's queues " + plan.runId() + ".stream-* were not deleted: the connection "
                    + "to " + connections.address() + " had closed (" + replyText(admin.getCloseReason()) + ")");
            declared.clear();
        }
        try {
            if (!declared.isEmpty()) {
                try (Channel channel = admin.createChannel()) {
                    for (String queue : declared) {
                        channel.queueDelete(queue);
                    }
                    for (String exchange : exchanges) {
                        channel.exchangeDelete(exchange);
                    }
                }
                declared.clear();
            }
        } catch (Exception e) {
            failure = e;
        }
        try {
            if (admin.isOpen()) {
                admin.close(CLOSE_TIMEOUT_MILLIS);
            }
        } catch (Exception e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        admin = null;
        if (failure != null && leftOpen != null) {
            failure.addSuppressed(leftOpen);
        }
        if (failure != null || leftOpen != null) {
            throw failure != null ? failure : leftOpen;
        }
    }

    /**
     * Closes the shared connections that are still open, left so only by a run that failed before
     * it closed its publishers and subscribers; returns the first failure, later ones attached.
     */
    private Exception closeSharedConnections() {
        Exception failure = null;
        for (SharedClients<Connection> shared : List.of(sharedConsumerConnections, sharedProducerConnections)) {
            try {
                shared.closeAll("closing RabbitMQ's shared connections");
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        return failure;
    }

    /**
     * A broker restarted just before the run ends (fault injection) is back before the client's
     * next recovery attempt: wait for that, briefly, so that the queues are deleted. A broker that
     * is gone costs this wait once.
     */
    private static void awaitRecovery(Connection connection) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECOVERY_WAIT_MILLIS);
        while (connection instanceof Recoverable && !connection.isOpen() && System.nanoTime() - deadline < 0) {
            Thread.sleep(RabbitConnections.RECOVERY_INTERVAL_MILLIS / 10);
        }
    }

    private static String replyText(ShutdownSignalException cause) {
        if (cause == null) {
            return "no reason given";
        }
        Object reason = cause.getReason();
        return reason instanceof AMQP.Connection.Close ? ((AMQP.Connection.Close) reason).getReplyText()
                : String.valueOf(cause.getMessage());
    }

    private static void closeIfOpen(Connection connection) throws IOException {
        if (connection.isOpen()) {
            connection.close(CLOSE_TIMEOUT_MILLIS);
        }
    }

    /**
     * Closes the channel of a publisher or consumer on a shared connection, then lets go of the
     * connection, which its last user closes.
     */
    static void closeChannelAndLetGo(Channel channel, AutoCloseable lease) throws Exception {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } finally {
            lease.close();
        }
    }

    private static void letGoAfterFailure(AutoCloseable lease, Exception failure) {
        try {
            lease.close();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            failure.addSuppressed(e);
        }
    }

    private static void closeAfterFailure(Connection connection, Exception failure) {
        try {
            connection.close(CLOSE_TIMEOUT_MILLIS);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
