package dev.msgbench.cli;

import static dev.msgbench.cli.LoopbackPorts.accepts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** e2e --system redis (pub/sub) against a redis-server it starts itself, run in-process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void pubSubOverTwoConnectionsEachWayReceivesEverythingAndWritesAllFiles() throws Exception {
        Path out = dir.resolve("pubsub");
        CliRun run = CliRun.of("e2e", "--system", "redis", "--rate", "1000", "--duration", "2s", "--warmup", "1s",
                "--connections", "2", "--size", "256B", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals("redis", r.get("system").asText());
        assertEquals(3_000, r.get("counts").get("sent").asLong());
        assertEquals(3_000, r.get("counts").get("received").asLong());
        assertEquals(3_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        JsonNode durability = r.get("durability");
        assertEquals("1", durability.get("acks").asText());
        assertEquals("no", durability.get("appendonly").asText());
        assertEquals("\"\" (no RDB snapshots)", durability.get("save").asText());
        assertEquals(0, durability.get("replicas").asInt());
        assertEquals("at-most-once (pub/sub keeps nothing)", durability.get("delivery").asText());
        assertEquals("33554432 8388608 60", durability.get("client-output-buffer-limit pubsub").asText());
        assertTrue(r.get("versions").get("client").asText().startsWith("lettuce 7."));
        assertTrue(r.get("versions").get("broker").asText().matches("\\d+\\.\\d+\\.\\d+"));
        assertEquals(2, r.get("workload").get("producers").asInt());
        for (String file : List.of("latency.hgrm", "service.hgrm", "send-delay.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        try (Stream<Path> logs = Files.list(out.resolve("broker-logs"))) {
            assertTrue(logs.anyMatch(p -> p.getFileName().toString().equals("redis-1.log")), "broker log kept with the results");
        }
        assertTrue(run.out.contains("sent 3,000   acknowledged 3,000   received 3,000   lost 0"), run.out);
        assertTrue(run.err.contains("ready at redis://127.0.0.1:"), run.err);
    }

    /** Unpaced, the publisher sends its commands in batches: none of them may be left unsent or lost. */
    @ParameterizedTest(name = "--redis-client {0}")
    @ValueSource(strings = {"lettuce", "direct"})
    void throughputSendsInBatchesAndEveryMessageArrives(String client) throws Exception {
        JsonNode r = throughput("--messages", "50000", "--size", "100B", "--consumers", "1", "--redis-client", client);
        assertEquals(client, r.get("settings").get("client").asText());
        assertEquals(50_000, r.get("counts").get("sent").asLong());
        assertEquals(50_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(50_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("unsent").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals(0, r.get("counts").get("sendErrors").asLong());
    }

    /**
     * At most 10 outstanding, fewer than a batch holds: unless the engine ends the burst before it
     * waits for acknowledgements, they never come, and the run stalls until it gives up.
     */
    @ParameterizedTest(name = "--redis-client {0}")
    @ValueSource(strings = {"lettuce", "direct"})
    void throughputWithFewerOutstandingThanABatchHoldsStillSendsEveryMessage(String client) throws Exception {
        long start = System.nanoTime();
        JsonNode r = throughput("--messages", "5000", "--max-outstanding", "10", "--consumers", "1", "--redis-client", client);
        assertEquals(5_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(5_000, r.get("counts").get("received").asLong());
        assertEquals(0, r.get("counts").get("unsent").asLong());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "no stall until the give-up time");
    }

    private JsonNode throughput(String... flags) throws Exception {
        Path out = dir.resolve("throughput");
        List<String> args = new java.util.ArrayList<>(List.of("throughput", "--system", "redis", "--output", out.toString()));
        args.addAll(List.of(flags));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        return r;
    }

    @Test
    void brokerPropsTurnOnPersistenceAndTheResultSaysSo() throws Exception {
        Path out = dir.resolve("aof");
        CliRun run = CliRun.of("e2e", "--system", "redis", "--rate", "500", "--duration", "1s", "--warmup", "0s",
                "--broker-prop", "appendonly=yes", "--broker-prop", "appendfsync=always", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(500, r.get("counts").get("received").asLong());
        assertEquals("yes", r.get("durability").get("appendonly").asText());
        assertEquals("always", r.get("durability").get("appendfsync").asText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks all|error: --acks all has no equivalent in Redis pub/sub: it keeps no message, so no replica holds one; use --acks 1, or --system redis-streams",
            "--maxlen 10|error: --maxlen applies to --system redis-streams only, not redis (see java -jar bench-all.jar e2e --help)",
            "--redis-client jedis|error: Invalid value for option '--redis-client': must be lettuce or direct, got 'jedis' (see java -jar bench-all.jar e2e --help)",
            "--url 127.0.0.1:1|error: --url: no Redis server answered at 127.0.0.1:1 within 5 s; check the address, or omit the flag to start a local broker",
            "--url redis://|error: --url must be host:port or redis://host:port for Redis, got 'redis://'",
    })
    void badInputIsOneLineNamingTheFlag(String args, String expected) {
        List<String> all = new java.util.ArrayList<>(List.of("e2e", "--system", "redis", "--output", dir.resolve("out").toString()));
        all.addAll(List.of(args.split(" ")));
        long start = System.nanoTime();
        CliRun run = CliRun.of(all.toArray(new String[0]));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of(expected), run.err.lines().filter(l -> l.startsWith("error")).toList(), run.toString());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "reported within 10 s");
    }

    @Test
    void theBrokerCommandPrintsAUrlThatAnswersAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "redis", "--brokers", "2", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("redis://127\\.0\\.0\\.1:\\d+"), run.out);
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
        assertFalse(accepts(port), "the broker is stopped when the command ends");
        assertTrue(run.err.contains("is running with 2 nodes"), run.err);
        assertTrue(Files.exists(dir.resolve("logs").resolve("redis-2.log")));
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "redis");
    }

    @Test
    void keysArePublishedOnAChannelEachAndPatternSubscriptionsReceiveThemAll() throws Exception {
        Path out = dir.resolve("keys");
        CliRun run = CliRun.of("e2e", "--system", "redis", "--redis-client", "direct", "--rate", "500", "--duration", "1s",
                "--warmup", "0s", "--producers", "2", "--consumers", "2", "--keys", "zipf:1.1", "--key-count", "200",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(500, r.get("counts").get("sent").asLong());
        assertEquals(500, r.get("counts").get("received").asLong());
        assertEquals(500, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        // RedisPubSubSystemTest sees the channels on the server
        assertEquals("zipf:1.1 over 200: a channel per key under the stream's (<stream channel>:k<key>), read with "
                + "PSUBSCRIBE <stream channel>:*", r.get("settings").get("recordKeys").asText());
    }
}
