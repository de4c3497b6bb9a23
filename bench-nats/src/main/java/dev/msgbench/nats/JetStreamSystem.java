package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

import io.nats.client.ConsumeOptions;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.MessageConsumer;
import io.nats.client.MessageHandler;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.ServerInfo;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;

import dev.msgbench.core.FirstFailure;
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
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.ServerMonitor;

/**
 * NATS JetStream through jnats: one stream per run with a subject per producer stream, a
 * consumer per producer stream (filtered on its subject, explicit acks), a connection per
 * producer and per consumer, or fewer that they share ({@link RunPlan#producerConnections()},
 * {@link RunPlan#consumerConnections()}). The stream is deleted at close.
 */
public final class JetStreamSystem implements MessagingSystem {

    /**
     * Pull requests that expire after 5 s instead of jnats' 30 s: the server sends heartbeats at
     * half that, and a pull that died with a restarted server is noticed by missed heartbeats and
     * pulled again, so a pull consumer resumes seconds after a restart rather than a minute.
     */
    private static final ConsumeOptions PULL_OPTIONS = ConsumeOptions.builder().expiresIn(5_000).build();

    /** A fresh cluster may refuse its first replicated stream for up to about a second. */
    private static final Duration CREATE_RETRY = Duration.ofSeconds(15);
    private static final long CREATE_RETRY_PAUSE_MILLIS = 100;
    /** JetStream's "insufficient resources": no peers yet in a cluster that is still forming. */
    private static final int INSUFFICIENT_RESOURCES = 10023;
    /** JetStream's API error code for a stream that is not there. */
    private static final int STREAM_NOT_FOUND = 10059;

    private final JetStreamSettings settings;
    /** The local server's monitoring endpoint, whose /jsz tells the sync setting in effect; null with --url. */
    private final ServerMonitor localMonitor;
    private final FirstFailure setupFailures = new FirstFailure();
    private Connection setup;
    private ErrorRelay setupRelay;
    private RunPlan plan;
    private Subjects subjects;
    private RecordKeys keys = RecordKeys.NONE;
    private ServerInfo server;
    private String streamName;
    private StreamConfiguration stream;
    /** Streams this side created (not found made by the other side of an echo): the ones close deletes. */
    private final List<String> createdStreams = new ArrayList<>();
    private String sync;
    private Object syncIntervalReported;
    /** By {@link RunPlan#producerConnectionOf} and {@link RunPlan#consumerConnectionOf}: one each, or shared. */
    private final SharedClients<JnatsLink> producerLinks = SharedClients.ofCloseables();
    private final SharedClients<JnatsLink> consumerLinks = SharedClients.ofCloseables();
    /** The producer streams whose subjects were proven to reach their JetStream stream, a batch at a time. */
    private ProbeBatches reachBatches;

    /** For a server given with --url, whose sync setting is not visible. */
    public JetStreamSystem(JetStreamSettings settings) {
        this(settings, null);
    }

    /** @param localMonitor the HTTP monitoring endpoint of the local server (node 1), or null with --url */
    public JetStreamSystem(JetStreamSettings settings, ServerMonitor localMonitor) {
        this.settings = settings;
        this.localMonitor = localMonitor;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        this.subjects = new Subjects(runPlan.runId());
        this.streamName = runPlan.topicName(0);
        this.reachBatches = new ProbeBatches(runPlan.producers(), runPlan.producerConnections());
        this.setupRelay = new ErrorRelay("msgbench-setup", setupFailures::add);
        this.setup = NatsConnections.open(settings.url(), settings.auth(), "msgbench-setup", settings.connectTimeout(),
                settings.startedBySuite(), setupRelay);
        this.server = setup.getServerInfo();
        if (!server.isJetStreamAvailable()) {
            throw new UserError("--url: the NATS server at " + settings.url() + " runs without JetStream; start it "
                    + "with -js (or a jetstream block in its config), or omit --url to start a local server");
        }
        NatsSystem.checkMessageSize(runPlan.messageSizeBytes(), server.getMaxPayload());
        for (int t = 0; t < runPlan.topics(); t++) {
            createStream(runPlan.topicName(t));
        }
        readSync();
    }

    /** A stream per topic, holding the subjects of the topic's producer streams and, with keys, of their keys. */
    private void createStream(String name) throws Exception {
        JetStreamManagement jsm = setup.jetStreamManagement(jsOptions());
        StreamConfiguration config = StreamConfiguration.builder()
                .name(name)
                .subjects(keys.isNone() ? new Subjects(name).all() : new Subjects(name).allWithKeys())
                .storageType(settings.storage().type())
                .replicas(settings.replicas())
                .build();
        long deadline = System.nanoTime() + CREATE_RETRY.toNanos();
        // asked once: after an attempt that timed out, the stream found may be this side's own
        Boolean existed = null;
        while (true) {
            try {
                if (existed == null) {
                    // the other side of an echo, in another process, may have made it: then that side deletes it
                    existed = exists(jsm, name);
                }
                StreamInfo info = jsm.addStream(config);
                if (!existed) {
                    createdStreams.add(name);
                }
                stream = info.getConfiguration();
                return;
            } catch (JetStreamApiException | IOException e) {
                if (!retryable(e) || System.nanoTime() - deadline >= 0) {
                    throw new UserError("cannot create JetStream stream " + name + " with --js-storage "
                            + settings.storage().label() + " and --js-replicas " + settings.replicas() + ": "
                            + describe(e));
                }
                Thread.sleep(CREATE_RETRY_PAUSE_MILLIS);
            }
        }
    }

    private boolean exists(JetStreamManagement jsm, String name) throws JetStreamApiException, IOException {
        try {
            jsm.getStreamInfo(name);
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** Unavailable and timing out are what a cluster still electing its leaders answers. */
    private static boolean retryable(Exception e) {
        if (e instanceof JetStreamApiException) {
            JetStreamApiException api = (JetStreamApiException) e;
            return api.getErrorCode() == 503 || api.getApiErrorCode() == INSUFFICIENT_RESOURCES;
        }
        return true;
    }

    private static String describe(Exception e) {
        if (e instanceof JetStreamApiException) {
            JetStreamApiException api = (JetStreamApiException) e;
            return api.getErrorDescription() + " (JetStream error " + api.getApiErrorCode() + ")";
        }
        return e.getMessage();
    }

    /** The sync setting in effect, from the local server's /jsz; a remote server's is not visible. */
    private void readSync() throws InterruptedException {
        if (stream.getStorageType() == JsStorage.MEMORY.type()) {
            sync = "n/a (memory storage)";
            return;
        }
        if (localMonitor == null) {
            sync = "unknown (remote server)";
            return;
        }
        try {
            JsonNode config = localMonitor.jetStreamConfig();
            JsonNode always = config.get("sync_always");
            JsonNode interval = config.get("sync_interval");
            if (always != null && always.asBoolean()) {
                sync = "always (fsync before each PubAck)";
            } else if (interval != null && interval.canConvertToLong()) {
                Duration every = Duration.ofNanos(interval.asLong());
                // acknowledged writes since the last background fsync are in the page cache only
                sync = "interval " + every.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
            } else {
                sync = "periodic (nats-server " + server.getVersion() + " reports no interval)";
            }
            syncIntervalReported = interval == null ? null : interval.asLong();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + localMonitor + "/jsz: " + e.getMessage(), e);
        }
    }

    private JetStreamOptions jsOptions() {
        return JetStreamOptions.builder().requestTimeout(settings.requestTimeout()).build();
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        SharedClients<JnatsLink>.Lease lease = consumerLinks.acquire(plan.consumerConnectionOf(index),
                c -> JnatsLink.open(settings.url(), settings.auth(), settings.connectTimeout(), settings.startedBySuite(),
                        (plan.consumersShareConnections() ? "msgbench-consumers-" : "msgbench-consumer-") + c));
        JnatsLink link = lease.client();
        Consumer<Throwable> errors = sink::onError;
        link.listen(errors);
        Connection connection = link.connection;
        List<MessageConsumer> pulls = new ArrayList<>();
        List<JetStreamSubscription> pushes = new ArrayList<>();
        // one dispatcher (one thread) per connection, whose consumers each bring their own handler
        Dispatcher dispatcher = settings.consumer() == JsConsumerMode.PUSH ? link.dispatcher(null) : null;
        try {
            MessageHandler handler = message -> deliver(message, sink);
            JetStream js = connection.jetStream(jsOptions());
            String topicStream = plan.topicName(plan.topicOfConsumer(index));
            Subjects topicSubjects = new Subjects(topicStream);
            // a durable consumer per producer stream and subscription: each subscription reads every message
            String subscription = plan.subscriptionsPerTopic() == 1 ? "" : "-s" + plan.subscriptionOfConsumer(index);
            for (int s : plan.streamsOf(index)) {
                // with keys, every message of stream s is on one of its keys' subjects: one consumer
                // reads them all in the order the stream stored them, so order and loss stay per producer stream
                String filter = keys.isNone() ? topicSubjects.stream(s) : topicSubjects.keysOf(s);
                ConsumerConfiguration config = ConsumerConfiguration.builder()
                        .durable("stream-" + s + subscription)
                        .filterSubject(filter)
                        .deliverPolicy(DeliverPolicy.All)
                        .ackPolicy(AckPolicy.Explicit)
                        .build();
                if (dispatcher != null) {
                    pushes.add(js.subscribe(filter, dispatcher, handler, false,
                            PushSubscribeOptions.builder().stream(topicStream).configuration(config).build()));
                } else {
                    pulls.add(connection.getStreamContext(topicStream, jsOptions()).createOrUpdateConsumer(config)
                            .consume(PULL_OPTIONS, handler));
                }
            }
            connection.flush(settings.connectTimeout());
            return new JsSubscriber(() -> link.ignore(errors), pulls, dispatcher, pushes, lease);
        } catch (Exception | Error e) {
            link.ignore(errors);
            for (MessageConsumer pull : pulls) {
                pull.stop();
            }
            for (JetStreamSubscription push : pushes) {
                dispatcher.unsubscribe(push);
            }
            lease.close();
            throw e;
        }
    }

    /** To the core first, then the ack: the message counts as received however the ack fares. */
    private static void deliver(Message message, MessageSink sink) {
        byte[] data = message.getData();
        sink.onMessage(data, 0, data.length, 0);
        message.ack();
    }

    /**
     * A subject per key under the producer stream's ({@code TOPIC.s.k42}), all in the topic's
     * JetStream stream ({@code TOPIC.>}), read by the stream's consumer filtered on {@code TOPIC.s.>}:
     * the server then stores and filters many subjects, as keyed applications make it.
     */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        // shared by the streams of one producer thread: each stream's PubAcks come back through its own futures
        SharedClients<JnatsLink>.Lease lease = producerLinks.acquire(plan.producerConnectionOf(streamId),
                c -> JnatsLink.open(settings.url(), settings.auth(), settings.connectTimeout(), settings.startedBySuite(),
                        (plan.producersShareConnections() ? "msgbench-producers-" : "msgbench-producer-") + c));
        JnatsLink link = lease.client();
        Connection connection = link.connection;
        String subject = reachTarget(streamId).subject();
        try {
            awaitReach(connection.jetStream(jsOptions()), streamId);
            if (!settings.awaitsPubAck()) {
                // the stream stores what is published on its subjects; without a reply subject no PubAck is sent
                return new CorePublisher(link, lease, subject, null, acks, Subjects.ofKeys(subject, keys));
            }
            return new JsPublisher(link, lease, connection.jetStream(jsOptions()), subject,
                    Subjects.ofKeys(subject, keys), acks, settings.maxPending());
        } catch (Exception | Error e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Proves that the server routes stream {@code streamId}'s subject to its JetStream stream: the
     * first stream of a batch of its connection's streams proves the whole batch at once
     * ({@link StreamReach#awaitAll}), so the others need no round trip of their own.
     */
    private void awaitReach(JetStream js, int streamId) throws Exception {
        int[] batch = reachBatches.claim(streamId);
        if (batch.length > 0) {
            List<StreamReach.Target> targets = new ArrayList<>(batch.length);
            for (int s : batch) {
                targets.add(reachTarget(s));
            }
            StreamReach.awaitAll(js, targets, settings.requestTimeout());
            reachBatches.proved(batch);
        }
        if (!reachBatches.proven(streamId)) {
            StreamReach.Target target = reachTarget(streamId);
            StreamReach.await(js, target.subject(), target.stream(), settings.requestTimeout());
        }
    }

    /** Producer stream s publishes on a subject of its own in its topic's JetStream stream. */
    private StreamReach.Target reachTarget(int streamId) {
        String topicStream = plan.topicName(plan.topicOf(streamId));
        return new StreamReach.Target(new Subjects(topicStream).stream(streamId), topicStream);
    }

    /**
     * The stream's cluster leader, from its stream info, by the node number in the server names of
     * a local cluster ({@link LocalNatsServer#nodeOfServerName}); a stream on a server without a
     * cluster reports that server. Empty while the stream has no leader (an election) and for
     * servers given with --url, whose names carry no node number.
     */
    @Override
    public OptionalInt leaderNode() throws Exception {
        StreamInfo info = setup.jetStreamManagement(jsOptions()).getStreamInfo(streamName);
        ClusterInfo cluster = info.getClusterInfo();
        String leader = cluster != null && cluster.getLeader() != null ? cluster.getLeader()
                : setup.getServerInfo().getServerName();
        return LocalNatsServer.nodeOfServerName(leader);
    }

    /** Messages stay stored until consumed, so consumers that start later read them all. */
    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public SystemInfo info() {
        int replicas = stream == null ? settings.replicas() : stream.getReplicas();
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", settings.acks().flagValue());
        durability.put("publisherAcknowledgement", pubAckMeaning(replicas));
        durability.put("storage", stream == null ? settings.storage().label()
                : stream.getStorageType().toString().toLowerCase(java.util.Locale.ROOT));
        durability.put("sync", sync);
        durability.put("replicas", replicas);
        durability.put("consumerAckPolicy", "explicit");
        durability.put("serverVersion", server == null ? "unknown" : server.getVersion());
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("url", settings.url());
        s.put("stream", streamName);
        if (plan != null && plan.topics() > 1) {
            s.put("streams", "one per topic: " + streamName + " .. " + plan.topicName(plan.topics() - 1));
        }
        s.put("subjects", subjects == null ? null : subjects.streamPattern());
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": a subject per key under the stream's (<stream subject>.k<key>), "
                    + "consumed with a filter on <stream subject>.>");
        }
        s.put("retention", stream == null ? null : stream.getRetentionPolicy().toString().toLowerCase(java.util.Locale.ROOT));
        s.put("consumer", settings.consumer().label());
        s.put("consumers", "one per producer stream and subscription, filtered on its subject, deliver all");
        s.put("jsSyncRequested", settings.sync().label());
        s.put("syncIntervalNanos", syncIntervalReported);
        s.put("maxPendingPubAcks", settings.awaitsPubAck() ? settings.maxPending() : null);
        s.put("requestTimeoutMs", settings.requestTimeout().toMillis());
        s.put("connections", Sharing.describe(plan, "one per producer stream and one per consumer"));
        s.put("tcpNoDelay", true);
        s.put("maxPayloadBytes", server == null ? null : server.getMaxPayload());
        return new SystemInfo("jetstream", NatsConnections.clientVersion(), server == null ? "unknown" : server.getVersion(),
                durability, s, settings.awaitsPubAck());
    }

    /** What a PubAck promises: JetStream acknowledges once the stream's RAFT group has a quorum. */
    private String pubAckMeaning(int replicas) {
        if (!settings.awaitsPubAck()) {
            return "none (core publish, no PubAck awaited)";
        }
        if (replicas == 1) {
            return "PubAck: stored by the one replica";
        }
        // JetStream acknowledges once the stream's RAFT group has a majority, never waiting for every replica
        return "PubAck: stored by a quorum, " + (replicas / 2 + 1) + " of " + replicas + " replicas";
    }

    @Override
    public void close() throws Exception {
        SharedClients.closeEach(List.of(producerLinks, consumerLinks), this::closeSetup);
    }

    private void closeSetup() throws Exception {
        if (setup == null) {
            return;
        }
        Connection c = setup;
        setup = null;
        try {
            JetStreamManagement jsm = c.jetStreamManagement(jsOptions());
            for (String name : createdStreams) {
                jsm.deleteStream(name);
            }
        } finally {
            setupRelay.closing();
            c.close();
        }
        setupFailures.throwIfAny("the setup connection");
    }
}
