package dev.msgbench.rabbit;

import com.rabbitmq.stream.AuthenticationFailureException;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.StreamException;
import com.rabbitmq.stream.compression.Compression;
import com.rabbitmq.stream.compression.CompressionCodec;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.echo.CloseAll;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.StreamGreeting;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import javax.net.ssl.SSLException;

/**
 * RabbitMQ Streams over the stream protocol through stream-client: one stream per topic, named
 * after it, which every producer stream of the topic appends to and every subscription of the topic
 * reads whole, with one consumer each, from the stream's first offset. Each producer and consumer
 * has a connection of its own, as in the suite's other adapters.
 *
 * <p>Consumers start at {@link OffsetSpecification#first()}, in every run, backlog or not: the
 * run's streams are made for it, so their first message is the run's first, and no message
 * published before a consumer's subscription took effect is missed, which {@code next} would
 * miss. A consumer that starts late (--backlog, --consume-after-produce) reads what was stored.
 */
public final class RabbitStreamsSystem implements MessagingSystem {

    public static final String NAME = "rabbitmq-streams";
    /** What a confirm means on a stream, after RabbitMQ's documentation of streams' data safety. */
    static final String CONFIRMED_WHEN = "written by a quorum of the stream's replicas (into each node's page "
            + "cache: streams never fsync)";
    /** Super streams (and single active consumers on streams) came with this release. */
    static final int SUPER_STREAM_MAJOR = 3;
    static final int SUPER_STREAM_MINOR = 11;

    /** RabbitMQ's default stream.frame_max, which a frame holding one message must fit. */
    private static final int FRAME_MAX_BYTES = 1_048_576;
    /** Room for the publish frame's fields and the message's AMQP 1.0 encoding around the body. */
    private static final int FRAME_OVERHEAD_BYTES = 1024;

    private final StreamSettings settings;
    /** Null for a broker given with --url: its streams' arguments are not read back. */
    private final LocalRabbitMq broker;
    private Environment environment;
    private StreamClientSecurity clientSecurity;
    private RunPlan plan;
    private final List<String> created = new ArrayList<>();
    private String brokerVersion = "unknown";
    /** What node 1 (or the broker given) reports of stream 0, read back after it was made. */
    private Map<String, String> arguments = Map.of();
    private Integer membersReadBack;

    /** @param broker the suite's local broker, whose streams' arguments and members rabbitmqctl reads back; null with --url */
    public RabbitStreamsSystem(StreamSettings settings, LocalRabbitMq broker) {
        this.settings = settings;
        this.broker = broker;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        this.plan = runPlan;
        clientSecurity = StreamClientSecurity.of(settings.uris(), settings.security());
        brokerVersion = serverVersion();
        refuseWhatThisBrokerLacks();
        refuseWhatStreamsCannotDo(runPlan);
        if (runPlan.messageSizeBytes() > FRAME_MAX_BYTES - FRAME_OVERHEAD_BYTES) {
            throw new UserError("--size: rabbitmq-streams sends a message in one frame of the stream protocol, at "
                    + "most " + FRAME_MAX_BYTES + " bytes (RabbitMQ's stream.frame_max) less "
                    + FRAME_OVERHEAD_BYTES + " for its headers; got " + runPlan.messageSizeBytes() + " bytes");
        }
        environment = connected(settings.uris(), clientSecurity);
        for (int t = 0; t < runPlan.topics(); t++) {
            String stream = runPlan.topicName(t);
            if (runPlan.consumers() == 0 && environment.streamExists(stream)) {
                // a side that only publishes finds the stream of a reader in another process, which deletes it
                continue;
            }
            var creator = environment.streamCreator().stream(stream);
            if (settings.replicas() != null) {
                creator.initialMemberCount(settings.replicas());
            }
            creator.create();
            created.add(stream);
        }
        if (broker != null && !created.isEmpty()) {
            arguments = broker.queueArguments(created.get(0));
            membersReadBack = broker.placement(created.get(0)).memberNodes().size();
        }
    }

    /** A connection per producer and per consumer, as the other adapters have. */
    static Environment environment(List<String> uris, StreamClientSecurity security) {
        return security.apply(Environment.builder().uris(uris))
                .maxProducersByConnection(1).maxConsumersByConnection(1)
                // the suite never compresses (sub-entry batching is off); the client's default factory would
                // load codecs whose libraries the build leaves out
                .compressionCodecFactory(RabbitStreamsSystem::noCompression)
                .build();
    }

    /** The environment, whose first connection logs in now: a refused login is one line naming --user. */
    private Environment connected(List<String> uris, StreamClientSecurity security) {
        try {
            return environment(uris, security);
        } catch (StreamException e) {
            if (causeOf(e, AuthenticationFailureException.class) != null) {
                throw new UserError("--user: RabbitMQ Streams at " + StreamClientSecurity.hostAndPort(uris.get(0))
                        + " refused the login of user '" + user(uris.get(0)) + "' (" + causeOf(e, AuthenticationFailureException.class)
                        .getMessage() + "); check --user and --password-file, or the URL's "
                        + "rabbitmq-stream+tls://USER:PASSWORD@HOST", e);
            }
            throw e;
        }
    }

    /** --user, else the URL's, else stream-client's default, guest. */
    private String user(String uri) {
        if (settings.security().user() != null) {
            return settings.security().user();
        }
        String userInfo = URI.create(uri).getUserInfo();
        return userInfo == null ? "guest" : userInfo.split(":", 2)[0];
    }

    private static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    static CompressionCodec noCompression(Compression compression) {
        throw new IllegalArgumentException("msgbench's rabbitmq-streams publishes uncompressed and its streams hold "
                + "no compressed batches, yet " + compression + " was asked for");
    }

    /** A one-line refusal, naming the release, of a flag this broker's version has no feature for. */
    private void refuseWhatThisBrokerLacks() {
        if (settings.superStreamPartitions() == null) {
            return;
        }
        if (RabbitVersion.before(brokerVersion, SUPER_STREAM_MAJOR, SUPER_STREAM_MINOR)) {
            throw new UserError(RabbitStreamsTarget.superStreamsMissing(brokerVersion));
        }
        throw new UserError("--super-stream-partitions: msgbench's rabbitmq-streams does not drive super streams yet "
                + "(RabbitMQ " + brokerVersion + " has them); leave it out");
    }

    private static void refuseWhatStreamsCannotDo(RunPlan runPlan) {
        if (runPlan.consumers() > 0 && runPlan.consumersPerSubscription() > 1) {
            throw new UserError("rabbitmq-streams: each consumer of a stream reads all of it, so "
                    + runPlan.consumersPerSubscription() + " consumers per subscription would each receive every "
                    + "message; sharing a stream among consumers needs super streams (RabbitMQ 3.11 or later): use "
                    + "one consumer per topic and subscription (--consumers = --topics x --subscriptions-per-topic)");
        }
        if (runPlan.producersShareConnections() || runPlan.consumersShareConnections()) {
            throw new UserError("--producer-threads and --consumer-connections below the number of producers and "
                    + "consumers are not supported by rabbitmq-streams: each producer and consumer has a connection "
                    + "of its own; leave them out");
        }
    }

    /**
     * The local broker's as it reported it at the start; a broker given with --url answers
     * peer-properties, over TLS where the run uses it: an untrusted certificate shows here first.
     */
    private String serverVersion() {
        if (broker != null) {
            return broker.version();
        }
        URI first = URI.create(settings.uris().get(0));
        try {
            return StreamGreeting.serverProperties(first.getHost(), clientSecurity.port(first), clientSecurity.greeting())
                    .getOrDefault("version", "unknown");
        } catch (SSLException e) {
            String address = StreamClientSecurity.hostAndPort(settings.uris().get(0));
            if (causeOf(e, CertificateException.class) != null) {
                throw new UserError("--ca: the TLS certificate of RabbitMQ Streams at " + address + " is not trusted "
                        + "or does not name its host (" + rootMessage(e) + "); give the authority that signed it "
                        + "with --ca FILE (PEM), and the host its certificate names", e);
            }
            throw new UserError("--url: the TLS handshake with RabbitMQ Streams at " + address + " failed ("
                    + rootMessage(e) + "); use rabbitmq-stream:// for a plain port", e);
        } catch (IOException e) {
            throw new UserError("--url: no RabbitMQ Streams node answered the stream protocol at "
                    + StreamClientSecurity.hostAndPort(settings.uris().get(0)) + " (" + rootMessage(e)
                    + "); check the address, or omit --url to start a local broker", e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) {
        return new RabbitStreamSubscriber(environment, plan.topicName(plan.topicOfConsumer(index)), sink);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) {
        return new RabbitStreamPublisher(environment.producerBuilder()
                .stream(plan.topicName(plan.topicOf(streamId)))
                .maxUnconfirmedMessages(settings.maxUnconfirmed())
                .build(), acks);
    }

    /** A stream keeps every message (no retention is set), whoever reads it and whenever. */
    @Override
    public boolean retainsMessages() {
        return true;
    }

    /**
     * The node that leads the first topic's stream on the suite's local broker, as the stream
     * protocol's metadata names it ({@link StreamLeader}), else as rabbitmqctl reports it (node 1 of
     * a one-node broker, without asking); empty with --url.
     */
    @Override
    public OptionalInt leaderNode() throws Exception {
        if (broker == null || created.isEmpty()) {
            return OptionalInt.empty();
        }
        if (broker.nodeCount() == 1) {
            return OptionalInt.of(1);
        }
        OptionalInt leader = StreamLeader.of(broker, created.get(0), clientSecurity);
        return leader.isPresent() ? leader : broker.placement(created.get(0)).leaderNode();
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", settings.acks().flagValue());
        durability.put("confirms", true);
        durability.put("confirmedWhen", CONFIRMED_WHEN);
        durability.put("fsync", "never: the OS writes the page cache when it chooses");
        durability.put("replicas", membersReadBack != null ? membersReadBack
                : settings.replicas() == null ? "the broker's default (--url: not read back)" : settings.replicas());
        durability.put("initialClusterSize", readBack("x-initial-cluster-size",
                settings.replicas() == null ? "the broker's default" : settings.replicas().toString()));
        durability.put("maxSegmentSizeBytes", readBack("x-stream-max-segment-size-bytes",
                "500000000 (RabbitMQ's default)"));
        durability.put("retention", retention());
        if (broker != null) {
            durability.put("streamArguments", new TreeMap<>(arguments));
        }
        durability.put("serverVersion", brokerVersion);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("url", settings.url());
        if (broker != null) {
            s.put("nodes", broker.nodeCount());
        }
        s.put("streams", plan == null ? "" : plan.topicName(0) + ", one per topic"
                + (plan.topics() == 1 ? "" : " (" + plan.runId() + "-t<topic>)"));
        s.put("consumerOffset", "first: each consumer reads its topic's stream from its first message");
        s.put("connections", "one per producer and per consumer (maxProducersByConnection 1, maxConsumersByConnection 1)");
        s.put("maxUnconfirmed", settings.maxUnconfirmed());
        s.put("batching", "stream-client's dynamic batching (dynamicBatch true, batchSize 100): a publish waits "
                + "for no timer; messages queued meanwhile go out together");
        s.put("codec", "stream-client's default (AMQP 1.0 through proton-j); the body is the suite's payload");
        return new SystemInfo(NAME, "stream-client " + clientVersion(), brokerVersion, durability, s, true);
    }

    /** x-max-length-bytes and x-max-age as read back; a stream without either keeps everything. */
    private String retention() {
        String bytes = arguments.get("x-max-length-bytes");
        String age = arguments.get("x-max-age");
        if (broker == null) {
            return "none set (--url: the broker's policies are not read back)";
        }
        if (bytes == null && age == null) {
            return "none: the stream keeps every message";
        }
        return (bytes == null ? "" : "max-length-bytes " + bytes) + (bytes != null && age != null ? ", " : "")
                + (age == null ? "" : "max-age " + age);
    }

    private String readBack(String argument, String otherwise) {
        String value = arguments.get(argument);
        if (value != null) {
            return value;
        }
        return broker == null ? otherwise + " (--url: not read back)" : otherwise;
    }

    static String clientVersion() {
        try (InputStream in = Environment.class.getClassLoader().getResourceAsStream("rabbitmq-stream-client.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("com.rabbitmq.stream.client.version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stream-client's version", e);
        }
    }

    /** Deletes the streams this run made, then closes every connection, whatever fails on the way. */
    @Override
    public void close() throws Exception {
        if (environment == null) {
            return;
        }
        List<AutoCloseable> steps = new ArrayList<>();
        for (String stream : created) {
            steps.add(() -> environment.deleteStream(stream));
        }
        steps.add(environment);
        CloseAll.inOrder(steps);
    }
}
