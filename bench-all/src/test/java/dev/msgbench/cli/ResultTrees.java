package dev.msgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** Values of a result.json read as a tree, as the end-to-end tests check them. */
final class ResultTrees {

    private ResultTrees() {
    }

    /** Sent and never received, acknowledged or not. */
    static long lost(JsonNode result) {
        JsonNode counts = result.get("counts");
        return counts.get("acknowledgedLost").asLong() + counts.get("unacknowledgedLost").asLong();
    }
}
