package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;

/**
 * One short e2e run with three topics of two subscriptions each against a system the run starts
 * itself (or the broker {@code --url} names), and its exact accounting: every message is received
 * once by each subscription of its topic, and nothing is lost, duplicated or misrouted.
 */
final class FanOutRuns {

    /** 3 producer streams at 300 msg/s for 1 s after a 500 ms warm-up: 450 messages, 900 deliveries. */
    static final long SENT = 450;

    private FanOutRuns() {
    }

    static JsonNode threeTopicsTwoSubscriptionsEach(Path out, String... systemArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e"));
        args.addAll(List.of(systemArgs));
        args.addAll(List.of("--topics", "3", "--subscriptions-per-topic", "2", "--producers", "3", "--rate", "300",
                "--duration", "1s", "--warmup", "500ms", "--output", out.toString()));
        CliRun run = CliRun.of(args.toArray(new String[0]));

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode counts = r.get("counts");
        assertEquals(SENT, counts.get("sent").asLong(), run.toString());
        assertEquals(2 * SENT, counts.get("deliveriesExpected").asLong());
        assertEquals(2 * SENT, counts.get("received").asLong(), run.toString());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals(0, counts.get("duplicated").asLong());
        assertEquals(0, counts.get("foreign").asLong());
        assertEquals(6, counts.get("subscriptions").size());
        for (JsonNode subscription : counts.get("subscriptions")) {
            assertEquals(SENT / 3, subscription.get("expected").asLong(), subscription.toString());
            assertEquals(SENT / 3, subscription.get("received").asLong(), subscription.toString());
        }
        assertEquals(3, r.get("workload").get("topics").asInt());
        assertEquals(2, r.get("workload").get("subscriptionsPerTopic").asInt());
        return r;
    }
}
