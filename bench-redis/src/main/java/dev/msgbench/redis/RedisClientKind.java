package dev.msgbench.redis;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What a Redis run's producers (and pub/sub subscribers) speak RESP through. */
public enum RedisClientKind {
    /** Lettuce: a command object and a future per PUBLISH, encoded and written by its I/O thread. */
    LETTUCE("lettuce"),
    /**
     * The suite speaks RESP itself ({@code redis.direct}): producers write PUBLISH or XADD from
     * their own thread and a reader matches the replies in order; pub/sub subscribers parse
     * pushes from their read buffer; Streams consumers stay lettuce. Far less client CPU per
     * message.
     */
    DIRECT("direct");

    private final String label;

    RedisClientKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the values allowed */
    public static RedisClientKind of(String label) {
        for (RedisClientKind c : values()) {
            if (c.label.equalsIgnoreCase(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("must be " + Arrays.stream(values()).map(RedisClientKind::label)
                .collect(Collectors.joining(" or ")) + ", got '" + label + "'");
    }
}
