package dev.msgbench.redis;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What carries a Redis pub/sub producer's PUBLISH commands. Subscribers always use lettuce. */
public enum PublisherClient {
    /** Lettuce: a command object and a future per PUBLISH, encoded and written by its I/O thread. */
    LETTUCE("lettuce"),
    /**
     * The suite writes RESP itself from the producer's thread and a reader thread matches the
     * replies in order ({@link DirectPubSubPublisher}): far less client CPU per message.
     */
    DIRECT("direct");

    private final String label;

    PublisherClient(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the values allowed */
    public static PublisherClient of(String label) {
        for (PublisherClient c : values()) {
            if (c.label.equalsIgnoreCase(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("must be " + Arrays.stream(values()).map(PublisherClient::label)
                .collect(Collectors.joining(" or ")) + ", got '" + label + "'");
    }
}
