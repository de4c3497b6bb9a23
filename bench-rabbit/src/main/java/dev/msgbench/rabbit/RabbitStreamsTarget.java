package dev.msgbench.rabbit;

import java.util.List;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
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
            description = "RabbitMQ Streams: each topic as a super stream of N partitions. Super streams arrived in "
                    + "RabbitMQ 3.11: refused on older brokers, Debian's 3.10.8 among them, and not driven yet.")
    Integer superStreamPartitions;

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
        return List.of("--max-unconfirmed");
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
        if (superStreamPartitions != null && localNodes > 0) {
            RabbitBrokerSpec.defaults().installedVersion()
                    .filter(v -> RabbitVersion.before(v, RabbitStreamsSystem.SUPER_STREAM_MAJOR,
                            RabbitStreamsSystem.SUPER_STREAM_MINOR))
                    .ifPresent(v -> {
                        throw new UserError(superStreamsMissing(v));
                    });
        }
    }

    /** The one line that refuses --super-stream-partitions on a broker of {@code version}. */
    static String superStreamsMissing(String version) {
        return "--super-stream-partitions needs RabbitMQ 3.11 or later, where super streams arrived; this RabbitMQ "
                + "is " + version + ": leave it out, or pass --url to a newer broker";
    }

    /** TLS on the stream port (rabbitmq-stream+tls://) and a login, as rabbitmq's on AMQP. */
    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalRabbitMq.start(RabbitBrokerSpec.of(request.broker()).withStreams()
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
                .withSecurity(request.security());
        return new RabbitStreamsSystem(settings, local);
    }
}
