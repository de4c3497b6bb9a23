package dev.msgbench.core.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a run ended; result.json writes it in lower case. */
public enum RunStatus {

    COMPLETE,
    /** Ended by a failure after it started (the result's error says which); its results are partial. */
    FAILED,
    /** Stopped by Ctrl+C; its results are partial. */
    INTERRUPTED;

    /** As result.json writes it: "complete", "failed", "interrupted". */
    @JsonValue
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonCreator
    public static RunStatus ofLabel(String label) {
        for (RunStatus status : values()) {
            if (status.label().equals(label)) {
                return status;
            }
        }
        throw new IllegalArgumentException("status must be complete, failed or interrupted, got '" + label + "'");
    }
}
