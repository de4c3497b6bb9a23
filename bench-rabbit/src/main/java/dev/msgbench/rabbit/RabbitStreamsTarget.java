package dev.msgbench.rabbit;

import java.util.List;
import java.util.Optional;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.nativetool.PerfTestTool;
import picocli.CommandLine.Option;

/**
 * RabbitMQ Streams: the local RabbitMQ with its stream plugin, driven over the stream protocol;
 * --max-unconfirmed (RabbitMQ's flag) bounds each producer's unconfirmed publishes.
 */
public final class RabbitStreamsTarget implements SystemTarget {

    /** Holds --max-unconfirmed, which both RabbitMQ systems read. */
    private final RabbitMqTarget amqp;

    RabbitStreamsTarget(RabbitMqTarget amqp) {
        this.amqp = amqp;
    }

    @Option(names = "--super-stream-partitions", paramLabel = "N",
            description = "RabbitMQ Streams: each topic as a super stream of N partition streams (made for the run, "
                    + "deleted after); a producer routes each message by its key (--keys), else by its sequence "
                    + "number, to a partition, and order holds within a partition only. Super streams arrived in "
                    + "RabbitMQ 3.11: refused on older brokers, Debian 12's 3.10.8 among them; use --rabbitmq-bin "
                    + "for the newer one scripts/setup installs, or --url.")
    Integer superStreamPartitions;

    @Option(names = "--stream-single-active-consumer",
            description = "RabbitMQ Streams: the consumers of one subscription form a single-active-consumer group "
                    + "(named after the subscription): one of them at a time reads each stream, or each partition of "
                    + "a super stream, so that several consumers per subscription share it (default: off; each "
                    + "consumer then reads all of its topic). RabbitMQ 3.11 or later, as super streams.")
    boolean singleActiveConsumer;

    @Override
    public String name() {
        return RabbitStreamsSystem.NAME;
    }

    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public List<String> borrowedFlags() {
        return List.of("--max-unconfirmed", "--rabbitmq-bin");
    }

    /**
     * --acks all (the default): a publish is confirmed once a quorum of the stream's replicas has
     * written it (not fsynced); --acks 1 means the same where a stream has one replica, so it is
     * taken on one local node only; --acks 0 is refused, since the stream protocol confirms every
     * publish.
     */
    @Override
    public void validate(Acks acks, int localNodes) {
        if (acks == Acks.NONE) {
            throw new UserError("--acks 0 has no equivalent on rabbitmq-streams: the stream protocol confirms every "
                    + "publish; use --acks all (the default)");
        }
        amqp.requireLocalBrokerForBin(localNodes);
        if (acks == Acks.BROKER && localNodes != 1) {
            throw new UserError("--acks 1 has no equivalent on rabbitmq-streams with more than one replica: a stream "
                    + "confirms a publish once a quorum of its replicas has it; use --acks all");
        }
        if (amqp.maxUnconfirmed != null && amqp.maxUnconfirmed < 1) {
            throw new UserError("--max-unconfirmed must be at least 1, got " + amqp.maxUnconfirmed);
        }
        if (superStreamPartitions != null && superStreamPartitions < 1) {
            throw new UserError("--super-stream-partitions must be at least 1, got " + superStreamPartitions);
        }
        String needsNewer = newerFlag(superStreamPartitions, singleActiveConsumer);
        if (needsNewer != null && localNodes > 0) {
            amqp.brokerSpec(BrokerSpec.defaults()).installedVersion()
                    .filter(v -> RabbitVersion.before(v, RabbitStreamsSystem.SUPER_STREAM_MAJOR,
                            RabbitStreamsSystem.SUPER_STREAM_MINOR))
                    .ifPresent(v -> {
                        throw new UserError(newerBrokerNeeded(needsNewer, v));
                    });
        }
    }

    /** The first of the flags given that needs RabbitMQ 3.11, null when neither is. */
    static String newerFlag(Integer superStreamPartitions, boolean singleActiveConsumer) {
        if (superStreamPartitions != null) {
            return "--super-stream-partitions";
        }
        return singleActiveConsumer ? "--stream-single-active-consumer" : null;
    }

    /** The one line that refuses {@code flag}, which needs RabbitMQ 3.11, on a broker of {@code version}. */
    static String newerBrokerNeeded(String flag, String version) {
        return flag + " needs RabbitMQ 3.11 or later, where super streams and single active consumers on streams "
                + "arrived; this RabbitMQ is " + version + ": leave it out, or start the RabbitMQ 4.0 that "
                + "scripts/setup installs with --rabbitmq-bin ~/.cache/msgbench/rabbitmq-trixie/usr/lib/rabbitmq/bin, "
                + "or pass --url to a newer broker";
    }

    /**
     * PerfTest over AMQP to a stream queue on the same node (LocalRabbitMq#nativeToolUrl gives it
     * the node's AMQP URL), against ours over the stream protocol.
     */
    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(PerfTestTool.onStreamQueues());
    }

    /** TLS on the stream port (rabbitmq-stream+tls://) and a login, as rabbitmq's on AMQP. */
    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalRabbitMq.start(amqp.brokerSpec(request.broker()).withStreams()
                .withRoomForMessagesOf(request.messageSizeBytes()));
    }

    /** A local cluster's streams are replicated on every node (x-initial-cluster-size); --url leaves it to the broker. */
    @Override
    public MessagingSystem connect(ConnectRequest request) {
        LocalRabbitMq local = request.broker() instanceof LocalRabbitMq ? (LocalRabbitMq) request.broker() : null;
        StreamSettings settings = StreamSettings.defaults(request.url())
                .withAcks(request.acks())
                .withMaxUnconfirmed(amqp.maxUnconfirmed == null ? StreamSettings.DEFAULT_MAX_UNCONFIRMED
                        : amqp.maxUnconfirmed)
                .withReplicas(local == null ? null : local.nodeCount())
                .withSuperStreamPartitions(superStreamPartitions)
                .withSingleActiveConsumer(singleActiveConsumer)
                .withSecurity(request.security());
        return new RabbitStreamsSystem(settings, local);
    }
}
