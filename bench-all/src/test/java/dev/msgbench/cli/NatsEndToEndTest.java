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

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** The e2e command with --system nats against nats-servers it starts itself, run in-process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void publishSubscribeAgainstALocalServerReceivesEverythingAndWritesAllFiles() throws Exception {
        Path out = dir.resolve("pubsub");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--rate", "500", "--duration", "2s", "--warmup", "500ms",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(1_250, r.get("counts").get("sent").asLong());
        assertEquals(1_250, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals("0", r.get("durability").get("acks").asText());
        assertEquals("none (core NATS is at-most-once)", r.get("durability").get("persistence").asText());
        assertEquals("pubsub", r.get("settings").get("pattern").asText());
        assertEquals(8 << 20, r.get("settings").get("maxPayloadBytes").asInt());
        assertTrue(r.get("versions").get("client").asText().startsWith("jnats 2."));
        assertTrue(r.get("broker").get("local").asBoolean());
        for (String file : List.of("latency.hgrm", "service.hgrm", "send-delay.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        assertFalse(Files.exists(out.resolve("ack.hgrm")), "core NATS acknowledges nothing");
        try (Stream<Path> logs = Files.list(out.resolve("broker-logs"))) {
            assertEquals(List.of("nats-1.log"), logs.map(p -> p.getFileName().toString()).toList());
        }
        assertTrue(run.out.contains("sent 1,250   acknowledged -   received 1,250   lost 0"), run.out);
        assertTrue(run.err.contains("ready at nats://127.0.0.1:"), run.err);
    }

    @Test
    void anAutomaticWarmupSettlesOnALocalServerAndThenMeasuresTheDuration() throws Exception {
        Path out = dir.resolve("auto");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--rate", "500", "--warmup", "auto:20s", "--duration", "3s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode w = ResultFiles.json().readTree(out.resolve("result.json").toFile()).get("workload");
        assertEquals("auto", w.get("warmup").asText());
        assertTrue(w.get("warmupSettled").asBoolean(), w.toString());
        double warmup = w.get("warmupSeconds").asDouble();
        // judged after 10 s at the earliest, measured from the next second; whole seconds from the start
        assertTrue(warmup >= 11 && warmup <= 20 && warmup == Math.rint(warmup), w.toString());
        JsonNode counts = ResultFiles.json().readTree(out.resolve("result.json").toFile()).get("counts");
        assertEquals(1_500, counts.get("measuredSent").asLong());
        assertTrue(Files.readAllLines(out.resolve("latency.hlog")).contains(String.format(java.util.Locale.US,
                "#measured from: %.3f s from StartTime (warm-up auto: settled)", warmup)));
        assertTrue(run.out.contains(String.format(java.util.Locale.US, "for 3 s after %.0f s of warm-up (auto: settled)",
                warmup)), run.out);
    }

    @Test
    void requestReplyOverThreeConnectionsOnAThreeNodeClusterLosesNothing() throws Exception {
        Path out = dir.resolve("rr");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--nats-pattern", "request-reply", "--brokers", "3",
                "--connections", "3", "--size", "5KB", "--rate", "600", "--duration", "2s", "--warmup", "500ms",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(1_500, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("duplicated").asLong());
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals(0, r.get("counts").get("foreign").asLong());
        assertEquals("request-reply", r.get("settings").get("pattern").asText());
        assertEquals(3, r.get("broker").get("nodes").asInt());
        assertEquals(3, r.get("workload").get("producers").asInt());
    }

    @Test
    void theDirectClientPublishesAThroughputRunThatAJnatsConsumerReceivesWhole() throws Exception {
        Path out = dir.resolve("direct");
        CliRun run = CliRun.of("throughput", "--system", "nats", "--nats-client", "direct", "--messages", "100000",
                "--size", "100", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(100_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals("direct", r.get("settings").get("publisherClient").asText());
        assertTrue(r.get("throughput").get("publisherMsgsPerSec").asDouble() > 0, r.toString());
    }

    @Test
    void keysArePublishedOnASubjectEachAndAWildcardSubscriptionReceivesThemAll() throws Exception {
        Path out = dir.resolve("keys");
        CliRun run = CliRun.of("throughput", "--system", "nats", "--messages", "20000", "--producers", "2",
                "--consumers", "2", "--keys", "random", "--key-count", "500", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals("random", r.get("workload").get("keys").asText());
        assertTrue(r.get("settings").get("recordKeys").asText().startsWith("random over 500: a subject per key"),
                r.get("settings").toString());

        Path directOut = dir.resolve("direct-keys");
        CliRun direct = CliRun.of("throughput", "--system", "nats", "--nats-client", "direct", "--messages", "20000",
                "--keys", "zipf:1.1", "--key-count", "50", "--output", directOut.toString());
        assertEquals(0, direct.exitCode, direct.toString());
        JsonNode d = ResultFiles.json().readTree(directOut.resolve("result.json").toFile());
        assertEquals(20_000, d.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(d));
        assertEquals(0, d.get("counts").get("reordered").asLong());
        assertEquals("direct", d.get("settings").get("consumerClient").asText());
        assertTrue(d.get("settings").get("recordKeys").asText().startsWith("zipf:1.1 over 50: a subject per key"),
                d.get("settings").toString());
    }

    @Test
    void aMebibyteMessageFitsTheLocalServer() throws Exception {
        Path out = dir.resolve("big");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--size", "1MiB", "--rate", "50", "--duration", "1s",
                "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(50, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
    }

    @Test
    void theBrokerCommandPrintsAnAddressThatAcceptsConnectionsAndStopsCleanly() {
        CliRun run = CliRun.of("broker", "nats", "--stop-after", "500ms", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("nats://127\\.0\\.0\\.1:\\d+"), run.out);
        assertFalse(accepts(Integer.parseInt(url.substring(url.lastIndexOf(':') + 1))), "stopped when the command ends");
        assertTrue(run.err.contains("is running with 1 node"), run.err);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks 1|error: --acks 1 is not available for core NATS: it never acknowledges a message (at-most-once); use --acks 0, or --system jetstream for stored, acknowledged messages",
            "--acks all|error: --acks all is not available for core NATS: it never acknowledges a message (at-most-once); use --acks 0, or --system jetstream for stored, acknowledged messages",
            "--nats-pattern rpc|error: Invalid value for option '--nats-pattern': must be pubsub or request-reply, got 'rpc' (see java -jar bench-all.jar e2e --help)",
            "--nats-client go|error: Invalid value for option '--nats-client': must be jnats or direct, got 'go' (see java -jar bench-all.jar e2e --help)",
            "--js-storage memory|error: --js-storage applies to --system jetstream only, not nats (see java -jar bench-all.jar e2e --help)",
            "--redis-client direct|error: --redis-client applies to --system redis and redis-streams only, not nats (see java -jar bench-all.jar e2e --help)",
            "--broker-prop cluster.name=x|error: --broker-prop cluster.name cannot be set: msgbench chooses it for every run (ports, directories, cluster routes); remove it",
            "--broker-prop jetstream.max_memory_store=1GB|error: --broker-prop jetstream.max_memory_store configures JetStream, which this server runs without; use --system jetstream",
    })
    void badInputIsOneLineAndExitsWithTwo(String args, String expected) {
        String[] flag = args.split(" ");
        CliRun run = CliRun.of("e2e", "--system", "nats", flag[0], flag[1], "--output", dir.resolve("out").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err.substring(run.err.indexOf("error: ")), run.toString());
        assertEquals(1, run.err.lines().filter(l -> l.startsWith("error: ")).count(), run.err);
    }

    @Test
    void anUnreachableUrlIsReportedWithinTenSeconds() {
        long start = System.nanoTime();
        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", "127.0.0.1:1", "--output", dir.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --url: no NATS server answered at 127.0.0.1:1 within 5 s; check the address, or omit --url "
                + "to start a local server" + System.lineSeparator(), run.err);
        assertTrue(seconds < 10, "took " + seconds + " s");
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "nats");
    }
}
