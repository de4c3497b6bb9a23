package dev.msgbench.cli;

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

import dev.msgbench.cli.measure.OutputOptions;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** --system loopback: the load generator measured alone, with no broker. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackEndToEndTest {

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void aScheduledRunDeliversEveryMessageWithoutStartingABroker() throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate", "2000", "--duration", "1s", "--warmup", "500ms",
                "--producers", "2", "--consumers", "2", "--spin-window", "600us", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertFalse(run.err.contains("starting a local"), run.err);
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(3000, r.get("counts").get("sent").asLong());
        assertEquals(3000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals("loopback", r.get("system").asText());
        assertEquals(0, r.get("broker").get("nodes").asInt());
        assertTrue(r.get("latenciesMs").get("latency").get("max").asDouble() > 0, r.toString());
        assertEquals(600.0, r.get("loadGenerator").get("spinWindowMicros").asDouble());
    }

    /** Producer streams sharing threads and consumers sharing connections still account for every message exactly. */
    @Test
    @TakesSeconds
    void twelveProducersOnThreeThreadsAndConsumersOnSharedConnectionsLoseCopyAndReorderNothing() throws Exception {
        Path out = dir.resolve("shared");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate", "2400", "--duration", "1s", "--warmup", "500ms",
                "--producers", "12", "--producer-threads", "3", "--topics", "6", "--consumers", "2",
                "--consumer-connections", "6", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.contains("12 producers, 2 consumers; producers on 3 threads, consumers on 6 shared "
                + "connections"), run.err);
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode counts = r.get("counts");
        assertEquals(3600, counts.get("sent").asLong());
        assertEquals(3600, counts.get("received").asLong());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals(0, counts.get("duplicated").asLong());
        assertEquals(0, counts.get("reordered").asLong());
        assertEquals(3, r.get("settings").get("producerThreads").asInt());
        assertEquals(6, r.get("settings").get("consumerConnections").asInt());
        assertEquals(12, r.get("workload").get("producers").asInt());

        String help = CliRun.of("e2e", "--help").out.replaceAll("\\s+", " ");
        assertTrue(help.contains("--producer-threads=N Threads the producer streams share"), help);
        assertTrue(help.contains("--consumer-connections=N Connections the consumers share"), help);
    }

    @Test
    void throughputModeCountsBothEnds() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "200000", "--size", "100",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(200000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertTrue(r.get("throughput").get("consumerMsgsPerSec").asDouble() > 0, r.toString());
    }

    /**
     * Two warm-up runs share the warm-up's messages (the second starts the clients again in compiled
     * code), each on destinations of its own and kept apart; result.json describes both and their sum.
     */
    @Test
    void warmupRunsComeFirstOnDestinationsOfTheirOwnAndAreKeptApart() throws Exception {
        Path out = dir.resolve("warm");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "3000", "--size", "100",
                "--warmup-messages", "1001", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode measured = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode first = ResultFiles.json().readTree(out.resolve("warmup/1/result.json").toFile());
        JsonNode second = ResultFiles.json().readTree(out.resolve("warmup/2/result.json").toFile());
        // each run counts its own messages only: no warm-up's messages reach another run's consumers
        assertEquals(List.of(3000L, 3000L, 0L, 501L, 501L, 0L, 500L, 500L, 0L),
                List.of(measured.get("counts").get("sent").asLong(), measured.get("counts").get("received").asLong(),
                        measured.get("counts").get("foreign").asLong(), first.get("counts").get("sent").asLong(),
                        first.get("counts").get("received").asLong(), first.get("counts").get("foreign").asLong(),
                        second.get("counts").get("sent").asLong(), second.get("counts").get("received").asLong(),
                        second.get("counts").get("foreign").asLong()),
                measured.get("counts") + " / " + first.get("counts") + " / " + second.get("counts"));
        JsonNode described = measured.get("loadGenerator").get("warmupRun");
        assertEquals(List.of("warmup", 1001L, 1001L, "complete", "warmup/1", 501L, "warmup/2", 500L),
                List.of(described.get("folder").asText(), described.get("sent").asLong(),
                        described.get("received").asLong(), described.get("status").asText(),
                        described.get("runs").get(0).get("folder").asText(), described.get("runs").get(0).get("sent").asLong(),
                        described.get("runs").get(1).get("folder").asText(), described.get("runs").get(1).get("sent").asLong()),
                described.toString());
        // the rate over both: all their messages over all their seconds, so between the two runs' own
        double all = described.get("publisherMsgsPerSec").asDouble();
        double one = described.get("runs").get(0).get("publisherMsgsPerSec").asDouble();
        double two = described.get("runs").get(1).get("publisherMsgsPerSec").asDouble();
        assertTrue(all >= Math.min(one, two) && all <= Math.max(one, two), described.toString());
        assertTrue(run.out.contains("after 2 warm-up runs of 1,001 messages in all, kept apart in warmup/"), run.out);
        assertTrue(run.err.contains("warm-up run: 501 messages, not measured"), run.err);
        assertTrue(run.err.contains("warm-up run: 500 messages, not measured"), run.err);
    }

    @Test
    void aNegativeWarmupIsRefusedInOneLine() {
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--warmup-messages", "-5", "--output",
                dir.resolve("neg").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: --warmup-messages must be 0 or more, got -5"), run.err);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"e2e, --warmup, 0s", "throughput, --messages, 2000"})
    @TakesSeconds
    void helpNamesEveryFileARunWrites(String command, String flag, String value) throws Exception {
        Path out = dir.resolve(command);
        CliRun run = CliRun.of(command, "--system", "loopback", flag, value, "--duration", "1s", "--output", out.toString());
        assertEquals(0, run.exitCode, run.toString());

        String help = CliRun.of(command, "--help").out.replaceAll("\\s+", " ");
        assertTrue(help.contains("Results go to --output: " + OutputOptions.FILES), help);
        try (Stream<Path> files = Files.list(out)) {
            for (Path file : files.toList()) {
                assertTrue(OutputOptions.FILES.contains(file.getFileName().toString()), file + " missing from --help");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks 1|error: --acks: the loopback system has no broker to acknowledge anything; omit --acks",
            "--url x:1|error: --url, --brokers, --broker-prop and --broker-cpus mean nothing to --system loopback, which runs inside this JVM without a broker",
            "--brokers 3|error: --url, --brokers, --broker-prop and --broker-cpus mean nothing to --system loopback, which runs inside this JVM without a broker",
            "--broker-cpus 0|error: --url, --brokers, --broker-prop and --broker-cpus mean nothing to --system loopback, which runs inside this JVM without a broker",
    })
    void brokerFlagsAreRefused(String args, String expected) {
        List<String> all = new java.util.ArrayList<>(List.of("e2e", "--system", "loopback", "--output",
                dir.resolve("bad").toString()));
        all.addAll(List.of(args.split(" ")));
        CliRun run = CliRun.of(all.toArray(String[]::new));
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith(expected), run.err);
    }

    @Test
    void thereIsNoLoopbackBrokerToStart() {
        CliRun run = CliRun.of("broker", "loopback");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: SYSTEM must be one of kafka, nats, jetstream, rabbitmq, rabbitmq-streams, redis, redis-streams, pulsar, mqtt, got 'loopback'"),
                run.err);
    }

    @Test
    @TakesSeconds
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "loopback");
    }

    @Test
    void aTopicWithoutAProducerStreamIsRefusedInOneLine() {
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--topics", "3", "--producers", "2", "--rate", "100",
                "--duration", "1s", "--output", dir.resolve("refused").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --topics 3: every topic needs a producer stream of its own; give --producers 3 or more, "
                + "or fewer topics (got 2) (see java -jar bench-all.jar e2e --help)\n", run.err);
    }
}
