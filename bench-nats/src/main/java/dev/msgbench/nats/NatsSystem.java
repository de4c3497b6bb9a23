package dev.msgbench.nats;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.MessageHandler;
import io.nats.client.Subscription;
import io.nats.client.api.ServerInfo;

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
import dev.msgbench.nats.direct.DirectPublisher;
import dev.msgbench.nats.direct.DirectSubscriber;
import dev.msgbench.nats.wire.WireConnection;

/**
 * Core NATS through jnats: a subject per producer stream, a connection per producer and per
 * consumer, or fewer that they share ({@link RunPlan#producerConnections()},
 * {@link RunPlan#consumerConnections()}). Publish/subscribe, or request/reply where a responder echoes every message back and
 * the requester's connection hands the echo to the core. Core NATS is at-most-once: nothing is
 * stored and nothing acknowledged.
 */
public final class NatsSystem implements MessagingSystem {

    private final NatsSettings settings;
    private final FirstFailure setupFailures = new FirstFailure();
    private Connection setup;
    private ErrorRelay setupRelay;
    private RunPlan plan;
    private RecordKeys keys = RecordKeys.NONE;
    private Subjects subjects;
    private Probes probes;
    private ProbeBatches probeBatches;
    private volatile MessageSink sink;
    private ServerInfo server;
    /** By {@link RunPlan#producerConnectionOf}: one per producer stream, or one per producer thread's streams. */
    private final SharedClients<JnatsLink> jnatsProducers = SharedClients.ofCloseables();
    private final SharedClients<DirectProducerLink> directProducers = SharedClients.ofCloseables();
    /** Only when consumers share connections ({@link RunPlan#consumersShareConnections}), by consumerConnectionOf. */
    private final SharedClients<JnatsLink> jnatsConsumers = SharedClients.ofCloseables();
    private final SharedClients<DirectConsumerLink> directConsumers = SharedClients.ofCloseables();

    public NatsSystem(NatsSettings settings) {
        this.settings = settings;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        this.subjects = new Subjects(runPlan.runId());
        this.probes = new Probes(runPlan.producers());
        this.probeBatches = new ProbeBatches(runPlan.producers(), runPlan.producerConnections());
        this.setupRelay = new ErrorRelay("msgbench-setup", setupFailures::add);
        this.setup = NatsConnections.open(settings.url(), settings.auth(), "msgbench-setup", settings.connectTimeout(),
                settings.startedBySuite(), setupRelay);
        this.server = setup.getServerInfo();
        checkMessageSize(runPlan.messageSizeBytes(), server.getMaxPayload());
        if (settings.pattern() == NatsPattern.REQUEST_REPLY && runPlan.subscriptionsPerTopic() > 1) {
            throw new UserError("--pattern request-reply: every subscription's responder would answer each request; "
                    + "give --subscriptions-per-topic 1 (got " + runPlan.subscriptionsPerTopic() + ")");
        }
    }

    /** The server refuses, and jnats will not send, a payload above max_payload. */
    static void checkMessageSize(int sizeBytes, long maxPayload) {
        if (sizeBytes > maxPayload) {
            throw new UserError("--size " + sizeBytes + " B: this NATS server accepts at most " + maxPayload
                    + " bytes per message (max_payload); raise max_payload in its config (at most 64MB; "
                    + "the local server sets 8MB)");
        }
    }

    @Override
    public Subscriber subscribe(int index, MessageSink messageSink) throws Exception {
        this.sink = messageSink;
        boolean echo = settings.pattern() == NatsPattern.REQUEST_REPLY;
        String name = (echo ? "msgbench-responder-" : "msgbench-consumer-") + index;
        if (plan.consumersShareConnections()) {
            return directConsumers() ? sharedDirectSubscriber(index, messageSink) : sharedSubscriber(index, messageSink, echo);
        }
        if (directConsumers()) {
            return directSubscriber(index, name, messageSink);
        }
        ErrorRelay relay = new ErrorRelay(name, messageSink::onError);
        Connection connection = NatsConnections.open(settings.url(), settings.auth(), name, settings.connectTimeout(),
                settings.startedBySuite(), relay);
        try {
            Dispatcher dispatcher = connection.createDispatcher(echo
                    ? message -> connection.publish(message.getReplyTo(), message.getData())
                    : message -> deliver(message, messageSink));
            for (String subject : subjectsOf(index)) {
                dispatcher.subscribe(subject);
            }
            connection.flush(settings.connectTimeout());
            return new CoreSubscriber(() -> {
                relay.closing();
                connection.close();
            });
        } catch (Exception | Error e) {
            relay.closing();
            connection.close();
            throw e;
        }
    }

    /**
     * Consumer {@code index} on the jnats connection it shares with the consumers of the same
     * subscription and member number on other topics: one dispatcher (one thread) per connection,
     * each consumer's subscriptions with a handler of their own, so each message reaches its own
     * consumer's sink. The engine makes every consumer before it awaits any: the first awaiting
     * on a connection flushes it, which confirms the subscriptions of all.
     */
    private Subscriber sharedSubscriber(int index, MessageSink to, boolean echo) throws Exception {
        SharedClients<JnatsLink>.Lease lease = jnatsConsumers.acquire(plan.consumerConnectionOf(index),
                c -> JnatsLink.open(settings.url(), settings.auth(), settings.connectTimeout(), settings.startedBySuite(),
                        (echo ? "msgbench-responders-" : "msgbench-consumers-") + c));
        JnatsLink link = lease.client();
        Consumer<Throwable> errors = to::onError;
        link.listen(errors);
        Dispatcher dispatcher = link.dispatcher(null);
        Connection connection = link.connection;
        MessageHandler handler = echo
                ? message -> connection.publish(message.getReplyTo(), message.getData())
                : message -> deliver(message, to);
        List<Subscription> subscriptions = new ArrayList<>();
        AutoCloseable leave = () -> {
            link.ignore(errors);
            try {
                for (Subscription subscription : subscriptions) {
                    dispatcher.unsubscribe(subscription);
                }
            } finally {
                lease.close();
            }
        };
        try {
            long mark = 0;
            for (String subject : subjectsOf(index)) {
                subscriptions.add(dispatcher.subscribe(subject, handler));
                mark = link.subscribed();
            }
            long subscribed = mark;
            return new CoreSubscriber(timeout -> link.confirm(subscribed, timeout), leave);
        } catch (Exception | Error e) {
            leave.close();
            throw e;
        }
    }

    /**
     * Consumer {@code index} on the direct connection it shares with consumers of other topics: one
     * reader thread per connection, handing each message to the consumer whose subscription id it
     * carries. Ready once a PING written after its SUBs is answered, one for all the consumers
     * subscribed before it.
     */
    private Subscriber sharedDirectSubscriber(int index, MessageSink to) throws Exception {
        SharedClients<DirectConsumerLink>.Lease lease = directConsumers.acquire(plan.consumerConnectionOf(index),
                c -> DirectConsumerLink.open(settings.url(), c, "msgbench-consumers-" + c, settings.connectTimeout(),
                        settings.startedBySuite(), probes));
        DirectConsumerLink link = lease.client();
        List<Long> sids = new ArrayList<>();
        AutoCloseable leave = () -> {
            try {
                link.unsubscribe(sids);
            } finally {
                lease.close();
            }
        };
        try {
            for (String subject : subjectsOf(index)) {
                sids.add(link.subscribe(subject, to));
            }
            return new DirectSubscriber(link.wire()::pingIfWritten, leave);
        } catch (Exception | Error e) {
            leave.close();
            throw e;
        }
    }

    /**
     * What consumer {@code index} subscribes to: each subscription subscribes for itself, so each
     * receives every message of its topic.
     */
    private List<String> subjectsOf(int index) {
        Subjects topicSubjects = new Subjects(plan.topicName(plan.topicOfConsumer(index)));
        List<String> names = new ArrayList<>();
        for (int s : plan.streamsOf(index)) {
            names.add(topicSubjects.stream(s));
            if (!keys.isNone()) {
                // the probes still come on the stream's own subject
                names.add(topicSubjects.keysOf(s));
            }
        }
        return names;
    }

    /** A consumer reading the protocol itself: each message reaches the core on the connection's reader thread. */
    private Subscriber directSubscriber(int index, String name, MessageSink to) throws Exception {
        WireConnection wire = WireConnection.open(settings.url(), index, name, settings.connectTimeout(), settings.startedBySuite(),
                new FirstFailure(),
                new WireConnection.MessageReceiver() {
                    @Override
                    public void message(long sid, byte[] buffer, int offset, int length) {
                        SidRouter.deliver(probes, to, buffer, offset, length);
                    }

                    @Override
                    public void failed(IOException failure) {
                        to.onError(failure);
                    }
                });
        try {
            List<String> subjects = subjectsOf(index);
            for (int sid = 0; sid < subjects.size(); sid++) {
                wire.subscribe(subjects.get(sid), null, sid);
            }
            wire.ping(settings.connectTimeout());
            return new DirectSubscriber(wire);
        } catch (Exception | Error e) {
            wire.close();
            throw e;
        }
    }

    private void deliver(Message message, MessageSink to) {
        byte[] data = message.getData();
        if (Probes.isProbe(data.length)) {
            probes.arrived(data);
        } else {
            to.onMessage(data, 0, data.length, 0);
        }
    }

    /**
     * A subject per key under the stream's ({@code TOPIC.s.k42}), which subscribers match with
     * {@code TOPIC.s.>}: the server then matches many subjects against a wildcard, as keyed
     * applications make it. The direct publisher builds a PUB line per key once.
     */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        return null;
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        MessageSink to = sink;
        // with no consumer at all (throughput --consumers 0) core NATS drops what it routes to no one,
        // which is what a publisher-only measurement wants: there is then no subscription to probe
        boolean publishOnly = plan.consumers() == 0 && settings.pattern() == NatsPattern.PUBSUB;
        if (to == null && !publishOnly) {
            throw new IllegalStateException("publisher before any subscriber: the core subscribes first");
        }
        if (settings.publisherClient() == NatsClient.DIRECT) {
            return directPublisher(streamId, to, publishOnly);
        }
        SharedClients<JnatsLink>.Lease lease = jnatsProducers.acquire(plan.producerConnectionOf(streamId),
                c -> openJnatsProducers(c, to));
        JnatsLink link = lease.client();
        Connection connection = link.connection;
        try {
            String subject = streamSubject(streamId);
            String replyTo = replyOf(streamId);
            if (!publishOnly) {
                awaitProbe(streamId, s -> connection.publish(streamSubject(s), replyOf(s), Probes.probe(s)));
            }
            return new CorePublisher(link, lease, subject, replyTo, acks, Subjects.ofKeys(subject, keys));
        } catch (Exception | Error e) {
            lease.close();
            throw e;
        }
    }

    /**
     * jnats producer connection {@code c}; for request/reply subscribed to the echoes of every stream
     * that publishes on it, confirmed by one round trip for all.
     */
    private JnatsLink openJnatsProducers(int c, MessageSink to) throws Exception {
        JnatsLink link = JnatsLink.open(settings.url(), settings.auth(), settings.connectTimeout(), settings.startedBySuite(),
                producerName(c));
        try {
            if (settings.pattern() == NatsPattern.REQUEST_REPLY) {
                for (int s = c; s < plan.producers(); s += plan.producerConnections()) {
                    receiveEchoes(link, subjects.reply(s), to);
                }
                link.connection.flush(settings.connectTimeout());
            }
            return link;
        } catch (Exception | Error e) {
            link.close();
            throw e;
        }
    }

    /** Where stream s's responder echoes to: its reply subject with request/reply, else nowhere (null). */
    private String replyOf(int streamId) {
        return settings.pattern() == NatsPattern.REQUEST_REPLY ? subjects.reply(streamId) : null;
    }

    /**
     * A producer connection's name, shown by the server's /connz: the stream's when it has one of its
     * own ({@code producerConnectionOf} is then the stream), else "msgbench-producers-" and its number.
     */
    private String producerName(int connection) {
        return (plan.producersShareConnections() ? "msgbench-producers-" : "msgbench-producer-") + connection;
    }

    /**
     * A producer writing the protocol itself, on its connection's buffer; request/reply still
     * receives its echoes through jnats.
     */
    private Publisher directPublisher(int streamId, MessageSink to, boolean publishOnly) throws Exception {
        SharedClients<DirectProducerLink>.Lease lease = directProducers.acquire(plan.producerConnectionOf(streamId),
                c -> openDirectProducers(c, to));
        DirectProducerLink link = lease.client();
        try {
            String subject = streamSubject(streamId);
            DirectPublisher publisher = new DirectPublisher(link.wire(), link.failures(), "the connection of " + subject,
                    link.frames(), link.firstLineOf(streamId), lease);
            if (!publishOnly) {
                awaitProbe(streamId, new Probes.Sender() {
                    @Override
                    public void send(int s) {
                        try {
                            link.frames().add(link.firstLineOf(s), Probes.probe(s));
                        } catch (IOException e) {
                            throw probeNotSent(link, e);
                        }
                    }

                    @Override
                    public void sent() {
                        try {
                            link.frames().flush();
                        } catch (IOException e) {
                            throw probeNotSent(link, e);
                        }
                    }
                });
            }
            return publisher;
        } catch (Exception | Error e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Direct producer connection {@code c}, with a PUB line for every stream that publishes on it
     * (and for each of their keys), and for request/reply the jnats connection its echoes come back on.
     */
    private DirectProducerLink openDirectProducers(int c, MessageSink to) throws Exception {
        String name = producerName(c);
        FirstFailure failures = new FirstFailure();
        WireConnection wire = WireConnection.open(settings.url(), c, name, settings.connectTimeout(), settings.startedBySuite(),
                failures);
        JnatsLink replies = null;
        try {
            checkMessageSize(plan.messageSizeBytes(), wire.maxPayload());
            boolean requestReply = settings.pattern() == NatsPattern.REQUEST_REPLY;
            if (requestReply) {
                replies = JnatsLink.open(settings.url(), settings.auth(), settings.connectTimeout(), settings.startedBySuite(),
                        name + "-replies", failures);
            }
            List<String> lines = new ArrayList<>();
            List<String> replyTos = new ArrayList<>();
            int linesPerStream = 1 + (keys.isNone() ? 0 : keys.count());
            for (int s = c; s < plan.producers(); s += plan.producerConnections()) {
                String subject = streamSubject(s);
                String replyTo = requestReply ? subjects.reply(s) : null;
                if (replyTo != null) {
                    receiveEchoes(replies, replyTo, to);
                }
                for (String line : DirectPublisher.pubSubjects(subject,
                        keys.isNone() ? List.of() : List.of(Subjects.ofKeys(subject, keys)))) {
                    lines.add(line);
                    replyTos.add(replyTo);
                }
            }
            if (replies != null) {
                replies.connection.flush(settings.connectTimeout());
            }
            return new DirectProducerLink(c, wire, failures, wire.publishFrames(lines, replyTos), linesPerStream,
                    plan.producerConnections(), replies);
        } catch (Exception | Error e) {
            wire.close();
            if (replies != null) {
                replies.close();
            }
            throw e;
        }
    }

    /** Stream s publishes on a subject of its own under its topic's name: {@code TOPIC.s}. */
    private String streamSubject(int streamId) {
        return new Subjects(plan.topicName(plan.topicOf(streamId))).stream(streamId);
    }

    /**
     * Request/reply: the responder's echoes to {@code replyTo} reach the core through {@code link}'s
     * one dispatcher, which the streams sharing the connection share. In place once a later flush
     * of the connection returns.
     */
    private void receiveEchoes(JnatsLink link, String replyTo, MessageSink to) {
        link.dispatcher(message -> deliver(message, to)).subscribe(replyTo);
    }

    /**
     * Sends probes until one comes through the whole path: a message sent earlier could be lost.
     * The streams of a connection are proven in batches, about a round trip per connection.
     */
    private void awaitProbe(int streamId, Probes.Sender sender) throws InterruptedException {
        int[] batch = probeBatches.claim(streamId);
        if (batch.length > 0) {
            probes.awaitAll(batch, settings.probeTimeout(), sender, this::probePath);
        }
        probes.await(streamId, settings.probeTimeout(), () -> {
            sender.send(streamId);
            sender.sent();
        }, probePath(streamId));
    }

    private String probePath(int streamId) {
        String replyTo = replyOf(streamId);
        return replyTo == null ? streamSubject(streamId) : streamSubject(streamId) + " and back on " + replyTo;
    }

    private IllegalStateException probeNotSent(DirectProducerLink link, IOException e) {
        return new IllegalStateException("could not send a probe on " + producerName(link.index()) + ": "
                + e.getMessage(), e);
    }

    /** Request/reply's responders and echo receivers stay on jnats: the direct client neither replies nor requests. */
    private boolean directConsumers() {
        return settings.publisherClient() == NatsClient.DIRECT && settings.pattern() == NatsPattern.PUBSUB;
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", NatsSettings.ACKS.flagValue());
        durability.put("persistence", "none (core NATS is at-most-once)");
        durability.put("publisherAcknowledgement", "none (core NATS has none)");
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("url", settings.url());
        s.put("pattern", settings.pattern().label());
        s.put("subjects", subjects == null ? null : plan.topics() == 1 ? subjects.streamPattern()
                : plan.runId() + "-t<topic>.<stream>, stream s on topic s mod " + plan.topics());
        if (!keys.isNone()) {
            s.put("recordKeys", keys + ": a subject per key under the stream's (<stream subject>.k<key>), "
                    + "subscribed with <stream subject>.>");
        }
        if (settings.pattern() == NatsPattern.REQUEST_REPLY) {
            s.put("replySubjects", subjects == null ? null : subjects.replyPattern());
            s.put("latency", "round trip: request through the server to the responder, echo back through the server");
        }
        String connections = settings.publisherClient() == NatsClient.DIRECT && settings.pattern() == NatsPattern.REQUEST_REPLY
                ? "per producer stream one writing requests and one (jnats) receiving echoes; one per consumer"
                : "one per producer stream and one per consumer";
        s.put("connections", Sharing.describe(plan, connections));
        s.put("publisherClient", settings.publisherClient().label());
        s.put("consumerClient", directConsumers() ? NatsClient.DIRECT.label() : NatsClient.JNATS.label());
        s.put("tcpNoDelay", true);
        s.put("maxPayloadBytes", server == null ? null : server.getMaxPayload());
        s.put("serverName", server == null ? null : server.getServerName());
        s.put("cluster", server == null ? null : server.getCluster());
        String client = settings.publisherClient() != NatsClient.DIRECT ? NatsConnections.clientVersion()
                : directConsumers() ? "msgbench direct NATS protocol client (producers and consumers)"
                : "msgbench direct NATS protocol writer (producers), " + NatsConnections.clientVersion() + " (responders, echoes)";
        return new SystemInfo("nats", client, server == null ? "unknown" : server.getVersion(),
                durability, s, false);
    }

    @Override
    public void close() throws Exception {
        SharedClients.closeEach(List.of(jnatsProducers, directProducers, jnatsConsumers, directConsumers), this::closeSetup);
    }

    private void closeSetup() throws Exception {
        if (setup != null) {
            Connection c = setup;
            setup = null;
            setupRelay.closing();
            c.close();
            setupFailures.throwIfAny("the setup connection");
        }
    }
}
