package dev.msgbench.core.driver;

/**
 * What a publish waits for (--acks), with one meaning across systems. Each adapter maps it to its
 * system's own setting, and refuses, saying why, a value its system has no equivalent for. Where
 * a run leaves it unset ({@code null}), each system keeps its own default.
 */
public enum Acks {

    /** "0": the publisher does not wait for the broker; nothing is acknowledged. */
    NONE("0"),
    /** "1": acknowledged once the broker (the leader of a replicated system) has the message. */
    BROKER("1"),
    /**
     * "all": acknowledged once the replicas have it, as far as the system can promise that: the
     * in-sync replicas (Kafka), a quorum (JetStream, RabbitMQ quorum queues), every connected
     * replica (Redis WAIT).
     */
    ALL("all");

    private final String flagValue;

    Acks(String flagValue) {
        this.flagValue = flagValue;
    }

    /** As --acks takes it and result.json records it: "0", "1" or "all". */
    public String flagValue() {
        return flagValue;
    }

    /**
     * @param text the value of --acks
     * @throws IllegalArgumentException naming the allowed values and {@code text}
     */
    public static Acks parse(String text) {
        for (Acks acks : values()) {
            if (acks.flagValue.equals(text)) {
                return acks;
            }
        }
        throw new IllegalArgumentException("must be 0, 1 or all, got '" + text + "'");
    }
}
