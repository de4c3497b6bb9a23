package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;

/** Values of a result.json read as a tree, as the end-to-end tests check them. */
final class ResultTrees {

    private ResultTrees() {
    }

    /** The result.json in {@code out}, asserted complete. */
    static JsonNode complete(Path out) throws IOException {
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        return r;
    }

    /** Sent and never received, acknowledged or not. */
    static long lost(JsonNode result) {
        JsonNode counts = result.get("counts");
        return counts.get("acknowledgedLost").asLong() + counts.get("unacknowledgedLost").asLong();
    }

    /** Every one of {@code messages} sent, acknowledged and received once, in order: the run of a healthy system. */
    static void assertEachDeliveredOnce(JsonNode result, long messages) {
        JsonNode counts = result.get("counts");
        assertEquals(messages, counts.get("sent").asLong(), "sent");
        assertEquals(messages, counts.get("acknowledged").asLong(), "acknowledged");
        assertEquals(messages, counts.get("received").asLong(), "received");
        assertEquals(0, lost(result), "lost");
        assertEquals(0, counts.get("duplicated").asLong(), "duplicated");
        assertEquals(0, counts.get("reordered").asLong(), "reordered");
    }
}
