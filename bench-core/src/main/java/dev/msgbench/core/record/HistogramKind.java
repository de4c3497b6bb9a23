package dev.msgbench.core.record;

/**
 * What a histogram measures. All values are nanoseconds of the run's one clock.
 */
public enum HistogramKind {
    /** Receive time minus intended send time: response time, free of coordinated omission. */
    LATENCY("latency"),
    /** Receive time minus actual send time: service time, for diagnosis only. */
    SERVICE("service"),
    /** Actual minus intended send time: how far the sender fell behind its schedule. */
    SEND_DELAY("send-delay"),
    /** Broker acknowledgement minus intended send time, where the system acknowledges. */
    ACK("ack"),
    /** How late the load generator's own sleeping thread woke: our JVM's stalls, not the broker's. */
    HICCUP("hiccup"),
    /**
     * A transaction's commit, as the driver times it (Kafka: commitTransaction's call to its return),
     * where the run commits transactions; one value per transaction, no interval log.
     */
    COMMIT("commit");

    private final String tag;

    HistogramKind(String tag) {
        this.tag = tag;
    }

    /** The tag of this kind in the interval log and the stem of its .hgrm file. */
    public String tag() {
        return tag;
    }

    public static HistogramKind ofTag(String tag) {
        for (HistogramKind kind : values()) {
            if (kind.tag.equals(tag)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown histogram tag: " + tag);
    }
}
