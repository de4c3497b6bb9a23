package dev.msgbench.rabbit;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;
import java.time.Duration;
import java.util.Objects;

/**
 * How the RabbitMQ adapter is configured for one run.
 *
 * @param url            amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST], or HOST:PORT
 * @param acks           0 (no publisher confirms, RabbitMQ's default), 1 (confirms from a classic
 *                       queue) or all (confirms from a quorum queue); null for {@link #DEFAULT_ACKS}
 * @param queueType      the queue of each producer stream
 * @param maxUnconfirmed with confirms, how many publishes may await their confirm; publish blocks
 *                       at the limit
 * @param consumerAck    manual (ack each message) or auto
 * @param prefetch       basic.qos per consumer with manual acks
 * @param replicas       quorum queue members when known (a local broker's size), else null
 * @param connectTimeout how long to try to reach the broker before giving up
 * @param security       TLS (amqps:// without it trusts the JVM's authorities) and a login, which
 *                       wins over the URL's; null for {@link ClientSecurity#NONE}
 */
public record RabbitSettings(String url, Acks acks, QueueType queueType, int maxUnconfirmed,
                             ConsumerAck consumerAck, int prefetch, Integer replicas, Duration connectTimeout,
                             ClientSecurity security) {

    public static final Acks DEFAULT_ACKS = Acks.NONE;
    public static final int DEFAULT_MAX_UNCONFIRMED = 1000;
    public static final int DEFAULT_PREFETCH = 100;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    public RabbitSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(queueType, "queueType");
        Objects.requireNonNull(consumerAck, "consumerAck");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        security = security == null ? ClientSecurity.NONE : security;
        acks = acks == null ? DEFAULT_ACKS : acks;
        checkAcks(acks, queueType);
        if (maxUnconfirmed < 1) {
            throw new UserError("--max-unconfirmed must be at least 1, got " + maxUnconfirmed);
        }
        if (prefetch < 1 || prefetch > 65_535) {
            throw new UserError("--prefetch must be 1 to 65535 (RabbitMQ's basic.qos limit), got " + prefetch);
        }
    }

    /** Transient queue, no confirms, manual acks with prefetch 100, as an application off the shelf. */
    public static RabbitSettings defaults(String url) {
        return new RabbitSettings(url, DEFAULT_ACKS, QueueType.TRANSIENT, DEFAULT_MAX_UNCONFIRMED, ConsumerAck.MANUAL,
                DEFAULT_PREFETCH, null, DEFAULT_CONNECT_TIMEOUT,
                ClientSecurity.NONE);
    }

    public RabbitSettings withAcks(Acks acks) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withQueueType(QueueType queueType) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withMaxUnconfirmed(int maxUnconfirmed) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withConsumerAck(ConsumerAck consumerAck) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withPrefetch(int prefetch) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withReplicas(Integer replicas) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withConnectTimeout(Duration connectTimeout) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    public RabbitSettings withSecurity(ClientSecurity security) {
        return new RabbitSettings(url, acks, queueType, maxUnconfirmed, consumerAck, prefetch, replicas, connectTimeout,
                security);
    }

    /** Whether publishers use publisher confirms. */
    public boolean confirms() {
        return acks != Acks.NONE;
    }

    /**
     * --acks keeps one meaning across systems: 1 = the broker has it, all = every replica has it.
     * A classic queue lives on one node, so it has no "all"; a quorum queue confirms only once a
     * quorum has the message, so it has no "1". Null (the default, 0) and 0 suit every queue.
     */
    public static void checkAcks(Acks acks, QueueType queueType) {
        if (acks == Acks.BROKER && queueType == QueueType.QUORUM) {
            throw new UserError("--acks 1 has no equivalent with --queue-type quorum: a quorum queue confirms "
                    + "only once a quorum of its replicas has the message; use --acks all");
        }
        if (acks == Acks.ALL && queueType != QueueType.QUORUM) {
            throw new UserError("--acks all needs --queue-type quorum: a " + queueType.label()
                    + " queue lives on one node, so its confirm means that node has the message (--acks 1)");
        }
    }
}
