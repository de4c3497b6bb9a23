package dev.msgbench.nats;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What carries a core NATS producer's messages to the server. Consumers always use jnats. */
public enum NatsClient {
    /** The official Java client: publish queues the message for jnats' writer thread. */
    JNATS("jnats"),
    /**
     * The suite writes the NATS protocol (PUB) itself, from the producer's own thread, batching
     * only messages sent back to back while behind schedule: the load generator then costs less
     * than the server it measures (jnats' hand-off to its writer thread does not).
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
