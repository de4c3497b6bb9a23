package dev.msgbench.rabbit;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import dev.msgbench.rabbit.nativetool.PerfTestTool;
import picocli.CommandLine.Option;

/** RabbitMQ over AMQP 0-9-1: flags and local node. */
public final class RabbitMqTarget implements SystemTarget {

    @Option(names = "--queue-type", paramLabel = "TYPE",
            description = "RabbitMQ: transient (non-durable classic queue, transient messages, as in E3), durable "
                    + "(durable classic queue, persistent messages) or quorum (replicated on every node, persistent) "
                    + "(default: transient; quorum on a local cluster, --brokers 2 or more).")
    QueueType queueType;

    @Option(names = "--max-unconfirmed", paramLabel = "N",
            description = "RabbitMQ: with --acks 1 or all, how many publishes per producer may await their confirm; "
                    + "publish blocks at the limit (default: " + RabbitSettings.DEFAULT_MAX_UNCONFIRMED
                    + "; rabbitmq-streams: the stream client's " + StreamSettings.DEFAULT_MAX_UNCONFIRMED + ").")
    Integer maxUnconfirmed;

    @Option(names = "--consumer-ack", paramLabel = "MODE", defaultValue = "manual",
            description = "RabbitMQ: manual (basic.ack each message, RabbitMQ's recommended practice) or auto "
                    + "(default: ${DEFAULT-VALUE}).")
    ConsumerAck consumerAck;

    @Option(names = "--prefetch", paramLabel = "N",
            description = "RabbitMQ: unacknowledged deliveries per consumer (basic.qos) with --consumer-ack manual "
                    + "(default: " + RabbitSettings.DEFAULT_PREFETCH + ").")
    Integer prefetch;

    @Option(names = "--rabbitmq-bin", paramLabel = "DIR",
            description = "RabbitMQ, RabbitMQ Streams: the directory of the scripts (rabbitmq-server, rabbitmqctl) of "
                    + "the local RabbitMQ to start (default: Debian's, /usr/lib/rabbitmq/bin, 3.10.8 on Debian 12). "
                    + "scripts/setup unpacks Debian 13's RabbitMQ 4.0 with its Erlang into "
                    + "~/.cache/msgbench/rabbitmq-trixie, whose scripts are in its usr/lib/rabbitmq/bin: what super "
                    + "streams and single active consumers need.")
    Path rabbitmqBin;

    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public String name() {
        return "rabbitmq";
    }

    /**
     * --acks: 0 = no publisher confirms (RabbitMQ's default), 1 = confirms from a classic queue, all =
     * confirms from a quorum queue (after a quorum of replicas has the message).
     */
    @Override
    public void validate(Acks acks, int localNodes) {
        requireLocalBrokerForBin(localNodes);
        Acks effectiveAcks = acks == null ? RabbitSettings.DEFAULT_ACKS : acks;
        if (queueType == null && localNodes > 1 && effectiveAcks == Acks.BROKER) {
            throw new UserError("--acks 1 has no equivalent on a local cluster, whose queues are quorum queues by "
                    + "default: a quorum queue confirms only once a quorum of its replicas has the message; use --acks "
                    + "all, or --queue-type durable for a classic queue on one node");
        }
        RabbitSettings.checkAcks(effectiveAcks, queueType(localNodes));
        if (maxUnconfirmed != null && effectiveAcks == Acks.NONE) {
            throw new UserError("--max-unconfirmed applies to publisher confirms only, which --acks 0 turns off; "
                    + "add --acks 1 (or --acks all with --queue-type quorum)");
        }
        if (maxUnconfirmed != null && maxUnconfirmed < 1) {
            throw new UserError("--max-unconfirmed must be at least 1, got " + maxUnconfirmed);
        }
        if (prefetch != null && consumerAck == ConsumerAck.AUTO) {
            throw new UserError("--prefetch applies to --consumer-ack manual only: RabbitMQ does not limit "
                    + "deliveries to auto-ack consumers");
        }
        if (prefetch != null && (prefetch < 1 || prefetch > 65_535)) {
            throw new UserError("--prefetch must be 1 to 65535 (RabbitMQ's basic.qos limit), got " + prefetch);
        }
    }

    /** Durable classic and quorum queues keep persistent messages in the node's Mnesia dir; a transient queue in memory. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return queueType(localNodes) == QueueType.TRANSIENT ? "a transient queue (--queue-type transient, the default "
                + "on one node) holds transient messages in memory; use --queue-type durable or quorum" : null;
    }

    /** --queue-type, else quorum on a local cluster (replicated, as a cluster is for) and transient elsewhere. */
    private QueueType queueType(int localNodes) {
        if (queueType != null) {
            return queueType;
        }
        return localNodes > 1 ? QueueType.QUORUM : QueueType.TRANSIENT;
    }

    /** --rabbitmq-bin chooses the local RabbitMQ to start; given with --url it would be ignored unseen. */
    void requireLocalBrokerForBin(int localNodes) {
        if (rabbitmqBin != null && localNodes == 0) {
            throw new UserError("--rabbitmq-bin chooses the local RabbitMQ the suite starts, and with --url it starts "
                    + "none, got --rabbitmq-bin " + rabbitmqBin + ": leave out one of the two");
        }
    }

    /** The local RabbitMQ of --rabbitmq-bin, else Debian's. */
    RabbitBrokerSpec brokerSpec(BrokerSpec broker) {
        return new RabbitBrokerSpec(broker, rabbitmqBin);
    }

    /** TLS (amqps://, mutual TLS), a user and password, the virtual host from the URL. */
    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(new PerfTestTool());
    }

    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalRabbitMq.start(brokerSpec(request.broker())
                .withRoomForMessagesOf(request.messageSizeBytes()));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        int localNodes = request.broker() == null ? 0 : request.broker().nodeCount();
        return new RabbitMqSystem(new RabbitSettings(request.url(), request.acks(), queueType(localNodes),
                maxUnconfirmed == null ? RabbitSettings.DEFAULT_MAX_UNCONFIRMED : maxUnconfirmed, consumerAck,
                prefetch == null ? RabbitSettings.DEFAULT_PREFETCH : prefetch,
                request.broker() == null ? null : request.broker().nodeCount(), RabbitSettings.DEFAULT_CONNECT_TIMEOUT,
                request.security()),
                request.broker() instanceof LocalRabbitMq ? (LocalRabbitMq) request.broker() : null);
    }
}
