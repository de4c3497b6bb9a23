package dev.msgbench.nats;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What carries core NATS messages between the load generator and the server: producers' always,
 * and in publish/subscribe consumers' too (request/reply's responders and echo receivers use
 * jnats either way).
 */
public enum NatsClient {
    /** The official Java client: publish queues the message for jnats' writer thread. */
    JNATS("jnats"),
    /**
     * The suite speaks the NATS protocol itself: producers write PUB from their own thread, batching
     * only messages sent back to back while behind schedule, and consumers parse MSG on their
     * connection's reader thread: the load generator then costs less than the server it measures
     * (jnats' hand-offs to its writer and dispatcher threads do not).
     */
    DIRECT("direct");

    private final String label;

    NatsClient(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the values allowed */
    public static NatsClient of(String label) {
        for (NatsClient c : values()) {
            if (c.label.equalsIgnoreCase(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("must be " + Arrays.stream(values()).map(NatsClient::label)
                .collect(Collectors.joining(" or ")) + ", got '" + label + "'");
    }
}
