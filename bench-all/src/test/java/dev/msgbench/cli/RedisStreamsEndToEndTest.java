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
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** e2e --system redis-streams against redis-servers it starts itself, run in-process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisStreamsEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void streamsWithTwoReplicasAndAcksAllReceiveEverythingAndRecordTheDurabilityAskedFor() throws Exception {
        Path out = dir.resolve("streams");
        CliRun run = CliRun.of("e2e", "--system", "redis-streams", "--brokers", "3", "--acks", "all",
                "--broker-prop", "appendonly=yes", "--broker-prop", "appendfsync=always", "--maxlen", "5000",
                "--xread-count", "50", "--producers", "3", "--consumers", "2", "--rate", "600", "--duration", "2s",
                "--warmup", "1s", "--keys", "random", "--key-count", "50", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals("redis-streams", r.get("system").asText());
        assertEquals(1_800, r.get("counts").get("sent").asLong());
        assertEquals(1_800, r.get("counts").get("received").asLong());
        assertEquals(1_800, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertEquals("yes", d.get("appendonly").asText());
        assertEquals("always", d.get("appendfsync").asText());
        assertEquals(2, d.get("replicas").asInt());
        assertEquals("~ 5000", d.get("maxlen").asText());
        assertEquals("XACK per read (up to 50 entries per key), pipelined, not awaited", d.get("consumerAck").asText());
        assertEquals(50, r.get("settings").get("xreadCount").asInt());
        // each entry with its key in a field (RedisStreamsSystemTest reads them back)
        assertEquals("random over 50: a field of each entry (k <key>, before m <message>); Redis Streams route nothing "
                + "by key, so the key costs only its bytes", r.get("settings").get("recordKeys").asText());
        assertEquals(3, r.get("broker").get("nodes").asInt());
        for (String file : List.of("latency.hgrm", "service.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
    }

    /** Unpaced with --acks all: XADD and WAIT pairs go out in batches, and every message is still waited for and read. */
    @ParameterizedTest(name = "--redis-client {0}")
    @ValueSource(strings = {"lettuce", "direct"})
    void throughputWithAcksAllSendsInBatchesAndEveryMessageArrives(String client) throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "redis-streams", "--brokers", "2", "--acks", "all",
                "--messages", "10000", "--size", "100B", "--consumers", "1", "--redis-client", client,
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(10_000, r.get("counts").get("sent").asLong());
        assertEquals(10_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(10_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("unsent").asLong());
        assertEquals(0, r.get("counts").get("sendErrors").asLong());
        assertEquals(client, r.get("settings").get("client").asText());
    }

    /** The measured consumers read their streams from the start: a warm-up on the same keys would reach them. */
    @Test
    void aWarmupRunWritesStreamsOfItsOwnThatTheMeasuredConsumersNeverRead() throws Exception {
        Path out = dir.resolve("warm");
        CliRun run = CliRun.of("throughput", "--system", "redis-streams", "--messages", "5000", "--size", "100B",
                "--warmup-messages", "2000", "--consume-after-produce", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode measured = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode warmup = ResultFiles.json().readTree(out.resolve("warmup").resolve("2").resolve("result.json").toFile());
        assertEquals(List.of(5000L, 0L, 0L, 1000L), List.of(measured.get("counts").get("received").asLong(),
                measured.get("counts").get("foreign").asLong(), measured.get("counts").get("duplicated").asLong(),
                warmup.get("counts").get("received").asLong()), measured.get("counts") + " / " + warmup.get("counts"));
        assertEquals(0, ResultTrees.lost(measured));
        assertEquals(2000, measured.get("loadGenerator").get("warmupRun").get("received").asLong());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks all|error: --acks all waits for every replica (WAIT), and a local Redis of 1 node has none; add --brokers 2 or more, or use --acks 1",
            "--maxlen 0|error: --maxlen must be at least 1, got 0",
            "--xread-count 0|error: --xread-count must be at least 1, got 0",
            "--redis-client jedis|error: Invalid value for option '--redis-client': must be lettuce or direct, got 'jedis' (see java -jar bench-all.jar e2e --help)",
            "--broker-prop dir=/tmp|error: --broker-prop dir cannot be set: msgbench chooses it for every start (ports, directories, replication, TLS and the login of --secure); remove it",
    })
    void badInputIsOneLineNamingTheFlag(String args, String expected) {
        List<String> all = new java.util.ArrayList<>(List.of("e2e", "--system", "redis-streams", "--output",
                dir.resolve("out").toString()));
        all.addAll(List.of(args.split(" ")));
        CliRun run = CliRun.of(all.toArray(new String[0]));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of(expected), run.err.lines().filter(l -> l.startsWith("error")).toList(), run.toString());
        assertTrue(Files.notExists(dir.resolve("out").resolve("result.json")));
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "redis-streams");
    }
}
