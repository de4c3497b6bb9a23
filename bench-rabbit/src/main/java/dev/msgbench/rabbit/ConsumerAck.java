package dev.msgbench.rabbit;

import java.util.Locale;

/** How consumers acknowledge deliveries. */
public enum ConsumerAck {
    /**
     * basic.ack for each message after the sink has it: what RabbitMQ recommends, so the broker
     * keeps a message until a consumer has processed it; prefetch limits unacknowledged deliveries.
     */
    MANUAL,
    /** autoAck: the broker forgets a message once it is written to the socket; no prefetch limit. */
    AUTO;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
