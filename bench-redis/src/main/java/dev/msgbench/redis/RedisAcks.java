package dev.msgbench.redis;

import dev.msgbench.core.driver.Acks;

/**
 * What --acks means for Redis. Redis answers every command, so "the broker has it" is simply the
 * reply; it has no equivalent of a producer that sends without a reply coming back.
 */
public enum RedisAcks {

    /** The publisher neither waits for nor counts the replies; Redis still sends them, the client drops them. */
    NONE(Acks.NONE),
    /** The reply to PUBLISH or XADD is the acknowledgement. */
    SERVER(Acks.BROKER),
    /** XADD followed by WAIT for every connected replica: the reply to WAIT is the acknowledgement. */
    REPLICAS(Acks.ALL);

    /** Without --acks: the reply is the acknowledgement. */
    public static final RedisAcks DEFAULT = SERVER;

    private final Acks acks;

    RedisAcks(Acks acks) {
        this.acks = acks;
    }

    /** The value of --acks: "0", "1" or "all". */
    public String flagValue() {
        return acks.flagValue();
    }

    /** The same choice in the driver interface's words, which the direct client takes. */
    Acks toAcks() {
        return acks;
    }

    /** @param acks --acks, or null for {@link #DEFAULT} */
    public static RedisAcks of(Acks acks) {
        if (acks == null) {
            return DEFAULT;
        }
        return switch (acks) {
            case NONE -> NONE;
            case BROKER -> SERVER;
            case ALL -> REPLICAS;
        };
    }
}
