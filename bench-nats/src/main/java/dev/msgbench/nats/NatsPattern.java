package dev.msgbench.nats;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How core NATS carries a message from producer to the core's sink. */
public enum NatsPattern {
    /** Publish to a subject, a subscriber receives it: latency is one trip through the server. */
    PUBSUB("pubsub"),
    /**
     * A responder on a connection of its own echoes each message back to the requester's reply
     * subject: latency is the round trip through the server twice (experiment E3's "request").
     */
    REQUEST_REPLY("request-reply");

    private final String label;

    NatsPattern(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the values allowed */
    public static NatsPattern of(String label) {
        for (NatsPattern p : values()) {
            if (p.label.equalsIgnoreCase(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("must be " + Arrays.stream(values()).map(NatsPattern::label)
                .collect(Collectors.joining(" or ")) + ", got '" + label + "'");
    }
}
