package dev.msgbench.kafka;

import java.util.Locale;

/** How consumers commit their offsets; experiment E5 compares these. */
public enum CommitMode {
    /** Kafka's default: enable.auto.commit=true, committed in the background every 5 s. */
    AUTO,
    /** commitAsync() after each poll that returned records. */
    ASYNC,
    /** commitSync() after each poll that returned records: the consumer waits for the broker. */
    SYNC;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
