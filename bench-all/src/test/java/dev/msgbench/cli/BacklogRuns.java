package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;

/**
 * One short e2e run with --backlog against a system's local broker (or the one {@code --url} names): 2,000 msg/s for
 * 3 s, the consumers held back until 2,000 messages were sent, then released; everything must arrive once and the
 * backlog be reached and drained.
 */
final class BacklogRuns {

    private static final int RATE = 2_000;
    private static final int SECONDS = 3;
    private static final int BACKLOG = 2_000;

    private BacklogRuns() {
    }

    /**
     * @param more further flags, such as {@code --url}
     * @return result.json's backlog object, checked
     */
    static JsonNode runAndAssertDrained(String system, Path out, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", system, "--rate", Integer.toString(RATE),
                "--duration", SECONDS + "s", "--warmup", "0s", "--backlog", Integer.toString(BACKLOG), "--output",
                out.toString()));
        args.addAll(List.of(more));
        CliRun run = CliRun.of(args.toArray(new String[0]));

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        long sent = (long) RATE * SECONDS;
        assertEquals(sent, r.get("counts").get("sent").asLong(), run.toString());
        assertEquals(sent, r.get("counts").get("received").asLong(), run.toString());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals(0, r.get("counts").get("duplicated").asLong(), run.toString());
        JsonNode b = r.get("backlog");
        assertEquals(BACKLOG, b.get("backlogMessages").asLong(), b.toString());
        assertTrue(b.get("reached").asBoolean(), b.toString());
        assertTrue(b.get("releasedAtSeconds").asDouble() >= b.get("reachedAtSeconds").asDouble(), b.toString());
        assertTrue(b.get("deliveriesWaiting").asLong() >= BACKLOG, b.toString());
        assertTrue(b.get("drained").asBoolean(), b.toString());
        assertTrue(b.get("drainedAtSeconds").asDouble() >= b.get("releasedAtSeconds").asDouble(), b.toString());
        assertTrue(run.out.contains("backlog " + BACKLOG + " messages: reached at "), run.out);
        return b;
    }
}
