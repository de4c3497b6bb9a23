package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** The e2e command with --system jetstream against nats-servers it starts itself, run in-process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class JetStreamEndToEndTest {

    @TempDir
    Path dir;

    /** E1's three NATS Streaming stores, mapped to JetStream. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "memory store|--js-storage memory|memory|n/a (memory storage)",
            "file store with fsync|--js-storage file --js-sync always|file|always (fsync before each PubAck)",
            "file store without fsync|--js-storage file|file|interval 2m",
    })
    void theThreeStoresOfE1RunAndRecordTheirDurability(String name, String flags, String storage, String sync)
            throws Exception {
        Path out = dir.resolve(storage + sync.length());
        List<String> args = new java.util.ArrayList<>(List.of("e2e", "--system", "jetstream", "--rate", "200",
                "--duration", "1s", "--warmup", "500ms", "--size", "256B", "--output", out.toString()));
        args.addAll(List.of(flags.split(" ")));
        CliRun run = CliRun.of(args.toArray(String[]::new));

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(300, r.get("counts").get("sent").asLong());
        assertEquals(300, r.get("counts").get("acknowledged").asLong());
        assertEquals(300, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode d = r.get("durability");
        assertEquals("1", d.get("acks").asText());
        assertEquals(storage, d.get("storage").asText());
        assertEquals(sync, d.get("sync").asText());
        assertEquals(1, d.get("replicas").asInt());
        assertEquals("explicit", d.get("consumerAckPolicy").asText());
        assertEquals(r.get("versions").get("broker").asText(), d.get("serverVersion").asText());
        for (String file : List.of("latency.hgrm", "service.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
    }

    @Test
    void acksAllOnAThreeNodeClusterWaitsForAQuorumOfThreeReplicasAndPullConsumersGetEverything() throws Exception {
        Path out = dir.resolve("r3");
        CliRun run = CliRun.of("e2e", "--system", "jetstream", "--brokers", "3", "--acks", "all", "--js-consumer", "pull",
                "--connections", "2", "--rate", "300", "--duration", "2s", "--warmup", "500ms", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(750, r.get("counts").get("received").asLong(), run.toString());
        assertEquals(750, r.get("counts").get("acknowledged").asLong(), run.toString());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertEquals(3, d.get("replicas").asInt());
        assertEquals("PubAck: stored by a quorum, 2 of 3 replicas", d.get("publisherAcknowledgement").asText());
        assertEquals("pull", r.get("settings").get("consumer").asText());
        assertEquals(3, r.get("broker").get("nodes").asInt());
    }

    @Test
    void acksZeroPublishesWithoutPubAcks() throws Exception {
        Path out = dir.resolve("acks0");
        CliRun run = CliRun.of("e2e", "--system", "jetstream", "--acks", "0", "--rate", "300", "--duration", "1s",
                "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(300, r.get("counts").get("received").asLong());
        assertEquals(0, r.get("counts").get("acknowledged").asLong());
        assertEquals("none (core publish, no PubAck awaited)", r.get("durability").get("publisherAcknowledgement").asText());
        assertTrue(Files.notExists(out.resolve("ack.hgrm")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks all|error: --acks all waits for replicas, but the stream has 1 (--js-replicas 1), so it would mean the same as --acks 1; use --acks 1, or a replicated stream (--js-replicas 3, with --brokers 3 for a local cluster)",
            "--js-replicas 3|error: --js-replicas 3 needs as many servers; the local cluster would have 1 (add --brokers 3)",
            "--js-replicas 7 --brokers 7|error: --js-replicas must be 1 to 5 (JetStream's limit), got 7",
            "--js-sync always --url 127.0.0.1:1|error: --js-sync always configures the local server; a server given with --url keeps its own setting (jetstream { sync_interval: always } in its config)",
            "--js-sync always --js-storage memory|error: --js-sync always applies to --js-storage file; memory storage is never written to disk",
            "--js-max-pending 10 --acks 0|error: --js-max-pending limits the PubAcks awaited, and --acks 0 awaits none; drop one of them",
            "--js-max-pending 0|error: --js-max-pending must be at least 1, got 0",
            "--js-sync always --broker-prop jetstream.sync_interval=1s|error: --js-sync always and --broker-prop jetstream.sync_interval both set the sync interval; give one of them",
            "--nats-pattern request-reply|error: --nats-pattern applies to --system nats only, not jetstream (see java -jar bench-all.jar e2e --help)",
    })
    void badInputIsOneLineAndExitsWithTwo(String args, String expected) {
        List<String> all = new java.util.ArrayList<>(List.of("e2e", "--system", "jetstream", "--output",
                dir.resolve("out").toString()));
        all.addAll(List.of(args.split(" ")));
        CliRun run = CliRun.of(all.toArray(String[]::new));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err.substring(run.err.indexOf("error: ")), run.toString());
        assertEquals(1, run.err.lines().filter(l -> l.startsWith("error: ")).count(), run.err);
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "jetstream");
    }

    /** The stream is created before the first message, so the consumer created at the release reads it all. */
    @Test
    void aConsumerHeldBackUntilABacklogOfTwoThousandReadsTheStreamFromItsStartAndDrainsIt() throws Exception {
        BacklogRuns.runAndAssertDrained("jetstream", dir.resolve("backlog"));
    }

    @Test
    void keyedMessagesWithoutPubAcksReachEveryPullSubscriptionOfTheirTopicWhole() throws Exception {
        JsonNode r = FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("keys"), "--system", "jetstream",
                "--acks", "0", "--js-consumer", "pull", "--keys", "random", "--key-count", "200");

        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals("random", r.get("workload").get("keys").asText());
        assertTrue(r.get("settings").get("recordKeys").asText().startsWith("random over 200: a subject per key"),
                r.get("settings").toString());
    }
}
