package dev.msgbench.rabbit;

import java.util.Locale;
import java.util.Map;

/**
 * The kind of queue each producer stream publishes to, and the delivery mode that goes with it.
 * E3 measured RabbitMQ with non-durable queues: {@link #TRANSIENT} is the default.
 */
public enum QueueType {
    /** A non-durable classic queue and transient messages (delivery mode 1): memory only. */
    TRANSIENT(false, false, "classic"),
    /** A durable classic queue and persistent messages (delivery mode 2): written to disk. */
    DURABLE(true, true, "classic"),
    /** x-queue-type=quorum: a Raft log replicated to the cluster's nodes, persistent messages. */
    QUORUM(true, true, "quorum");

    private final boolean durable;
    private final boolean persistentMessages;
    private final String serverType;

    QueueType(boolean durable, boolean persistentMessages, String serverType) {
        this.durable = durable;
        this.persistentMessages = persistentMessages;
        this.serverType = serverType;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The queue.declare durable flag (quorum queues must be durable). */
    boolean durable() {
        return durable;
    }

    /** Delivery mode 2 (persistent) rather than 1 (transient). */
    boolean persistentMessages() {
        return persistentMessages;
    }

    /** What RabbitMQ calls the queue type (its x-queue-type). */
    String serverType() {
        return serverType;
    }

    Map<String, Object> arguments() {
        return this == QUORUM ? Map.of("x-queue-type", "quorum") : Map.of();
    }
}
