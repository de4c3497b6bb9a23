package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.NeedsFuse;

/**
 * --fault power-loss against real brokers on forgetful disks: a killed broker keeps its page cache
 * and loses nothing it acknowledged, a broker whose machine loses power loses what it never
 * synced, and a broker that syncs before it acknowledges loses nothing either way.
 *
 * <p>The consumers are held back (--backlog) until after the cut: a message a consumer received
 * before the power went counts as delivered, so only a backlog shows what the disk lost.
 */
@NeedsBroker
@NeedsFuse
@ExtendWith(OwnTmpdir.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PowerLossEndToEndTest {

    @TempDir
    Path dir;

    /**
     * Redis Streams with AOF: everysec writes every reply's entry to the AOF at once and fsyncs once
     * a second, so a kill loses nothing (the kernel still writes the page cache out) and a power cut
     * loses the last second; always fsyncs before it replies.
     */
    @ParameterizedTest(name = "appendfsync {0}, {1}")
    @CsvSource({"everysec, kill, false", "everysec, power-loss, true", "always, power-loss, false"})
    void redisStreamsLosesAcknowledgedEntriesToAPowerCutOnlyWhenItFsyncsEverySecond(String appendfsync, String fault,
                                                                                  boolean loses) throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "redis-streams", "--broker-prop", "appendonly=yes", "--broker-prop",
                "appendfsync=" + appendfsync, "--rate", "2000", "--duration", "5s", "--warmup", "0s", "--backlog", "8000",
                "--drain-timeout", "2s", "--fault", fault + "@1500ms:restart-after=500ms", "--output", out.toString());

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals((loses ? ExitCode.ACKNOWLEDGED_LOST : ExitCode.OK).code(), run.exitCode, run.toString());
        long acknowledgedLost = r.get("counts").get("acknowledgedLost").asLong();
        assertEquals(loses, acknowledgedLost > 0, "acknowledged lost: " + acknowledgedLost);
        assertTrue(r.get("counts").get("acknowledged").asLong() > 5_000, r.get("counts").toString());
        assertEquals(appendfsync, r.get("durability").get("appendfsync").asText());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertEquals(1, event.get("node").asInt());
        assertTrue(event.get("endedAtSeconds").isNumber(), "restarted: " + event);
        if (fault.equals("power-loss")) {
            assertEquals(true, r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
            JsonNode cut = event.get("powerCuts").get(0);
            assertEquals(1, cut.get("node").asInt());
            // everysec leaves up to a second of the AOF unsynced (always, at most what it has not answered yet)
            assertTrue(!loses || cut.get("discardedBytes").asLong() > 0, cut.toString());
            assertTrue(run.out.contains("  fault " + fault + "@1500ms:restart-after=500ms (node 1): asked 1."), run.out);
            assertTrue(run.out.contains(", rolled back "), run.out);
            assertTrue(Files.readString(out.resolve("latency.hlog")).contains("#[fault power-loss node=1 asked 1."));
            assertTrue(Files.isRegularFile(out.resolve("broker-logs/forgetfs-1.log")));
        } else {
            assertTrue(r.get("broker").get("forgetfulDisks") == null, "a kill needs no forgetful disk");
            assertTrue(event.get("powerCuts").isNull(), event.toString());
        }
    }

    /**
     * --isolate runs the load generator, and with it the broker and its forgetful disk, inside the
     * client host (ip netns exec, a mount namespace of its own): the power cut reaches the disk
     * there as here, everysec loses its last second, and the run leaves no host behind.
     */
    @Test
    void aPowerCutOfABrokerOnAHostOfItsOwnLosesWhatItNeverSynced() throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "redis-streams", "--isolate", "--broker-prop", "appendonly=yes",
                "--rate", "2000", "--duration", "5s", "--warmup", "0s", "--backlog", "8000", "--drain-timeout", "2s",
                "--fault", "power-loss@1500ms:restart-after=500ms", "--output", out.toString());

        assertEquals(List.of(), IsolateEndToEndTest.namespacesOf(ProcessHandle.current().pid()));
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(ExitCode.ACKNOWLEDGED_LOST.code(), run.exitCode, run.toString());
        assertTrue(r.get("counts").get("acknowledgedLost").asLong() > 0, r.get("counts").toString());
        assertTrue(r.get("broker").get("isolation").isObject(), r.get("broker").toString());
        assertEquals(true, r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertTrue(event.get("powerCuts").get(0).get("discardedBytes").asLong() > 0, event.toString());
    }

    /**
     * Kafka RF 3 with acks=all: by default no replica fsyncs, so a power cut of every node loses what
     * they acknowledged, and a cut of one node loses nothing (the others still have it);
     * flush.messages=1 syncs every append on every replica before the follower fetches that
     * acknowledge it. Where nothing may be lost the drain must outwait the cluster's restart (18 s
     * on the busy CI machine): a send blocked while every node is down is given up once the drain
     * timeout has passed after the schedule, and what is still missing when the drain times out
     * counts as lost.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "log.flush.interval.messages=9223372036854775807 | power-loss@2s:node=all:restart-after=500ms | true  | 5s",
            "log.flush.interval.messages=1                   | power-loss@2s:node=all:restart-after=500ms | false | 90s",
            "log.flush.interval.messages=9223372036854775807 | power-loss@2s:restart-after=500ms          | false | 5s"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void kafkaWithAcksAllLosesAcknowledgedMessagesOnlyWhenEveryNodeLosesPowerWithoutAFlushPerMessage(String flush,
            String fault, boolean loses, String drainTimeout) throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "kafka", "--brokers", "3", "--acks", "all", "--broker-prop", flush,
                "--rate", "1000", "--duration", "6s", "--warmup", "0s", "--backlog", "6000", "--drain-timeout", drainTimeout,
                "--fault", fault, "--output", out.toString());

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals((loses ? ExitCode.ACKNOWLEDGED_LOST : ExitCode.OK).code(), run.exitCode, run.toString());
        long acknowledgedLost = r.get("counts").get("acknowledgedLost").asLong();
        assertEquals(loses, acknowledgedLost > 0, "acknowledged lost: " + acknowledgedLost);
        assertTrue(r.get("counts").get("acknowledged").asLong() > 500, r.get("counts").toString());
        JsonNode event = r.get("faults").get(0).get("event");
        boolean all = fault.contains("node=all");
        assertEquals(all ? 3 : 1, event.get("powerCuts").size(), event.toString());
        assertEquals(all, event.get("node").isNull(), event.toString());
        if (all) {
            // every node was cut and started again while the run went on
            assertEquals("done", event.get("outcome").asText(), event.toString());
            assertTrue(run.out.contains("  fault " + fault + " (every node): asked 2."), run.out);
        }
    }

    /**
     * RabbitMQ's durable classic queue confirms a persistent message once its queue has fsynced it,
     * so a power cut of its one node loses nothing it confirmed. The cut did take something: the
     * queue's .queue_name file, which RabbitMQ writes when it declares the queue (after the disks
     * settled) and never syncs, comes back empty.
     */
    @Test
    void rabbitMqDurableQueueWithConfirmsLosesNoConfirmedMessageToAPowerCut() throws Exception {
        Path out = dir.resolve("out");
        // the node served again 5 to 7 s after the cut here; the consumers, released at 8 s, wait for it. The
        // drain ends once every acknowledged message is in, so its 30 s cost nothing then; 5 s were too few in
        // one CI run on a busy machine (2026-11-30: the node ready at 5.9 s, nothing delivered by 13 s)
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--queue-type", "durable", "--acks", "1", "--rate", "1000",
                "--duration", "8s", "--warmup", "0s", "--backlog", "8000", "--drain-timeout", "30s", "--fault",
                "power-loss@2s:restart-after=500ms", "--output", out.toString());

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(ExitCode.OK.code(), run.exitCode, run.toString());
        JsonNode counts = r.get("counts");
        assertEquals(0, counts.get("acknowledgedLost").asLong(), counts.toString());
        assertTrue(counts.get("acknowledged").asLong() > 1_000, counts.toString());
        assertEquals(true, r.get("durability").get("queueDurable").asBoolean(), r.get("durability").toString());
        assertEquals(true, r.get("durability").get("confirms").asBoolean(), r.get("durability").toString());
        assertEquals(true, r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertEquals(1, event.get("powerCuts").size(), event.toString());
        JsonNode cut = event.get("powerCuts").get(0);
        assertEquals(1, cut.get("node").asInt(), cut.toString());
        assertTrue(cut.get("files").asLong() >= 1 && cut.get("discardedBytes").asLong() > 0, cut.toString());
        assertTrue(run.out.contains("  fault power-loss@2s:restart-after=500ms (node 1): asked 2."), run.out);
    }

    /**
     * JetStream R3 at its default sync_interval (2 minutes): a power cut of every node within it
     * takes the acknowledged messages and the stream itself, whose creation was never synced either
     * (as Jepsen found, nats-server issue 7564); the consumers, released after the restart, find no
     * stream.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void jetStreamR3AtItsDefaultSyncLosesItsAcknowledgedMessagesAndItsStreamToAPowerCutOfEveryNode() throws Exception {
        Path out = dir.resolve("out");
        // released at 16 s: long after the restart (6 s on a busy machine), once the client has reconnected
        CliRun run = CliRun.of("e2e", "--system", "jetstream", "--brokers", "3", "--rate", "500", "--duration", "16s",
                "--warmup", "0s", "--backlog", "8000", "--drain-timeout", "5s", "--fault",
                "power-loss@2s:node=all:restart-after=500ms", "--output", out.toString());

        assertEquals(ExitCode.RUN_FAILED.code(), run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("failed", r.get("status").asText(), run.toString());
        assertEquals("JetStreamApiException: stream not found [10059]", r.get("error").asText());
        JsonNode counts = r.get("counts");
        assertTrue(counts.get("acknowledged").asLong() > 300, counts.toString());
        assertEquals(counts.get("acknowledged").asLong(), counts.get("acknowledgedLost").asLong(), counts.toString());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("done", event.get("outcome").asText(), event.toString());
        long undone = 0;
        for (JsonNode cut : event.get("powerCuts")) {
            undone += cut.get("namespaceUndone").asLong();
        }
        assertTrue(undone > 0, "the stream's files were created and never synced: " + event);
    }

}
