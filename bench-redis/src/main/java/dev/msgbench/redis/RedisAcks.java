package dev.msgbench.redis;

import dev.msgbench.core.UserError;

/**
 * What --acks means for Redis. Redis answers every command, so "the broker has it" is simply the
 * reply; it has no equivalent of a producer that sends without a reply coming back.
 */
public enum RedisAcks {

    /** The publisher neither waits for nor counts the replies; Redis still sends them, the client drops them. */
    NONE("0"),
    /** The reply to PUBLISH or XADD is the acknowledgement. */
    SERVER("1"),
    /** XADD followed by WAIT for every connected replica: the reply to WAIT is the acknowledgement. */
    REPLICAS("all");

    private final String flagValue;

    RedisAcks(String flagValue) {
        this.flagValue = flagValue;
    }

    /** The value of --acks: "0", "1" or "all". */
    public String flagValue() {
        return flagValue;
    }

    /**
     * @param acks   --acks as given, or null for the default, 1
     * @param system the --system value, for the message
     */
    public static RedisAcks parse(String acks, String system) {
        if (acks == null) {
            return SERVER;
        }
        for (RedisAcks value : values()) {
            if (value.flagValue.equals(acks)) {
                return value;
            }
        }
        throw new UserError("--acks must be 0, 1 or all for --system " + system + ", got '" + acks + "'");
    }
}
