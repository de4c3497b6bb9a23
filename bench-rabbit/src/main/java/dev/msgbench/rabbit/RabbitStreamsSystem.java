package dev.msgbench.rabbit;

import com.rabbitmq.stream.AuthenticationFailureException;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.ProducerBuilder;
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
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.StreamGreeting;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * RabbitMQ Streams over the stream protocol through stream-client: one stream per topic, named
 * after it, which every producer stream of the topic appends to and every subscription of the topic
 * reads whole, with one consumer each, from the stream's first offset. Each producer and consumer
 * has a connection of its own, as in the suite's other adapters.
 *
 * <p>With --super-stream-partitions N (RabbitMQ 3.11+) each topic is a super stream of that name,
 * whose partitions are the streams TOPIC-0 to TOPIC-(N-1): producers route each message by its key,
 * consumers read every partition, each partition a lane of its own. With
 * --stream-single-active-consumer the consumers of a subscription are one group, named after the
 * subscription, in which the broker lets one consumer at a time read each stream (or partition).
 *
 * <p>Consumers start at {@link OffsetSpecification#first()}, in every run, backlog or not: the
 * run's streams are made for it, so their first message is the run's first, and no message
 * published before a consumer's subscription took effect is missed, which {@code next} would
 * miss. A consumer that starts late (--backlog, --consume-after-produce) reads what was stored.
 * A single active consumer that takes a stream over from another of its group resumes after the
 * group's last message there ({@link ActiveConsumerHandoff}).
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
    /** The streams, or super streams, this run made, which it deletes. */
    private final List<String> created = new ArrayList<>();
    /** The run's keys as routing keys, by index; null without --keys. */
    private String[] routingKeys;
    /** Each single-active-consumer group's read positions, by group name. */
    private final Map<String, ActiveConsumerHandoff> groups = new ConcurrentHashMap<>();
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
            if (runPlan.consumers() == 0 && environment.streamExists(firstStreamOf(stream))) {
                // a side that only publishes finds the stream of a reader in another process, which deletes it
                continue;
            }
            var creator = environment.streamCreator();
            if (partitions() > 0) {
                creator = creator.name(stream).superStream().partitions(partitions()).creator();
            } else {
                creator.stream(stream);
            }
            if (settings.replicas() != null) {
                creator.initialMemberCount(settings.replicas());
            }
            creator.create();
            created.add(stream);
        }
        if (broker != null && !created.isEmpty()) {
            arguments = broker.queueArguments(firstStreamOf(created.get(0)));
            membersReadBack = broker.placement(firstStreamOf(created.get(0))).memberNodes().size();
        }
    }

    /** --super-stream-partitions, 0 for plain streams. */
    private int partitions() {
        return settings.superStreamPartitions() == null ? 0 : settings.superStreamPartitions();
    }

    /** The topic's stream, or its super stream's first partition: where arguments and replicas are read back. */
    private String firstStreamOf(String topic) {
        return partitions() > 0 ? partitionStream(topic, 0) : topic;
    }

    /** The stream of a super stream's partition {@code partition}, as RabbitMQ names those it makes. */
    static String partitionStream(String superStream, int partition) {
        return superStream + "-" + partition;
    }

    /**
     * The message's key routes it to a super stream's partition; a plain stream has one log, where a
     * key would change nothing.
     */
    @Override
    public String useKeys(RecordKeys keys) {
        if (partitions() == 0) {
            return "a stream is one log, so a key would change nothing in where a message goes; give "
                    + "--super-stream-partitions N to route by key";
        }
        byte[][] bytes = keys.keyBytes();
        routingKeys = new String[bytes.length];
        for (int k = 0; k < bytes.length; k++) {
            routingKeys[k] = new String(bytes[k], StandardCharsets.US_ASCII);
        }
        return null;
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
        String flag = RabbitStreamsTarget.newerFlag(settings.superStreamPartitions(), settings.singleActiveConsumer());
        if (flag != null && RabbitVersion.before(brokerVersion, SUPER_STREAM_MAJOR, SUPER_STREAM_MINOR)) {
            throw new UserError(RabbitStreamsTarget.newerBrokerNeeded(flag, brokerVersion));
        }
    }

    private void refuseWhatStreamsCannotDo(RunPlan runPlan) {
        if (runPlan.consumers() > 0 && runPlan.consumersPerSubscription() > 1 && !settings.singleActiveConsumer()) {
            throw new UserError("rabbitmq-streams: each consumer of a stream reads all of it, so "
                    + runPlan.consumersPerSubscription() + " consumers per subscription would each receive every "
                    + "message; add --stream-single-active-consumer (RabbitMQ 3.11 or later), with "
                    + "--super-stream-partitions N to spread the partitions over the consumers, or use one consumer "
                    + "per topic and subscription (--consumers = --topics x --subscriptions-per-topic)");
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
        int topic = plan.topicOfConsumer(index);
        String group = settings.singleActiveConsumer()
                ? plan.subscriptionName(topic, plan.subscriptionOfConsumer(index)) : null;
        ActiveConsumerHandoff handoff = group == null ? null
                : groups.computeIfAbsent(group, g -> new ActiveConsumerHandoff(Math.max(1, partitions())));
        return new RabbitStreamSubscriber(environment, plan.topicName(topic), partitions(), group, handoff, sink);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) {
        String topic = plan.topicName(plan.topicOf(streamId));
        ProducerBuilder builder = environment.producerBuilder().maxUnconfirmedMessages(settings.maxUnconfirmed());
        if (partitions() > 0) {
            builder.superStream(topic).routing(RabbitStreamPublisher::routingKey);
        } else {
            builder.stream(topic);
        }
        return new RabbitStreamPublisher(builder.build(), acks, partitions() > 0, routingKeys);
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
        String stream = firstStreamOf(created.get(0));
        OptionalInt leader = StreamLeader.of(broker, stream, clientSecurity);
        return leader.isPresent() ? leader : broker.placement(stream).leaderNode();
    }

    private String streamsText() {
        String name = plan.topicName(0) + (plan.topics() == 1 ? "" : " (" + plan.runId() + "-t<topic>)");
        return partitions() == 0 ? name + ", one per topic"
                : "a super stream per topic, " + name + ", of partition streams " + partitionStream(plan.topicName(0), 0)
                + " to " + partitionStream(plan.topicName(0), partitions() - 1);
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
        s.put("streams", plan == null ? "" : streamsText());
        s.put("superStreamPartitions", partitions() == 0 ? "none: one stream per topic" : partitions());
        if (partitions() > 0) {
            s.put("routing", "each message's message-id property, hashed (murmur3) modulo the partitions: its key "
                    + "(--keys), else its sequence number; order holds within a partition");
        }
        s.put("singleActiveConsumer", settings.singleActiveConsumer()
                ? "on: the consumers of a subscription are one group, named after it, with one active consumer per "
                + (partitions() > 0 ? "partition" : "stream") + " (a takeover resumes after the group's last message)"
                : "off: each consumer reads all of its topic");
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
            steps.add(partitions() > 0 ? () -> environment.deleteSuperStream(stream)
                    : () -> environment.deleteStream(stream));
        }
        steps.add(environment);
        CloseAll.inOrder(steps);
    }
}
