package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.kafka.KafkaTarget;

/**
 * Kafka's options against one broker started for the class and given with --bootstrap-servers,
 * which is also the path for a cluster the suite did not start (or Redpanda).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class KafkaOptionsTest {

    private static LocalBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker(@TempDir Path logs) {
        // started for 1 MiB messages, so the limit is the local broker's raised one
        broker = new KafkaTarget().startLocalBroker(
                new SystemTarget.BrokerRequest(BrokerSpec.defaults().withLogDir(logs), 1 << 20));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private JsonNode e2e(String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e", "--bootstrap-servers", broker.url(), "--duration", "2s",
                "--warmup", "500ms", "--output", dir.toString()));
        if (!List.of(flags).contains("--rate")) {
            args.addAll(List.of("--rate", "200"));
        }
        args.addAll(List.of(flags));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.toString());
        return ResultFiles.json().readTree(dir.resolve("result.json").toFile());
    }

    @Test
    void acksZeroHasNoAcknowledgementsButStillDeliversEverything() throws Exception {
        JsonNode r = e2e("--acks", "0");
        assertEquals("0", r.get("durability").get("acks").asText());
        assertEquals(0, r.get("counts").get("acknowledged").asLong());
        assertTrue(r.get("latenciesMs").get("ack").isEmpty());
        assertEquals(r.get("counts").get("sent").asLong(), r.get("counts").get("received").asLong());
        assertFalse(r.get("broker").get("local").asBoolean());
        assertFalse(Files.exists(dir.resolve("ack.hgrm")));
    }

    @Test
    void experimentE5SyncCommitsSmallPollsAndNoBatchingAreRecorded() throws Exception {
        JsonNode r = e2e("--acks", "1", "--commit", "sync", "--poll-timeout", "5ms", "--consumer-prop", "max.poll.records=50",
                "--producer-prop", "batch.size=0", "--producer-prop", "linger.ms=0", "--producer-flush", "each-send");
        assertEquals("each-send", r.get("settings").get("producerFlush").asText());
        assertEquals("sync", r.get("durability").get("consumerCommit").asText());
        assertEquals("50", r.get("settings").get("consumerProps").get("max.poll.records").asText());
        assertEquals("0", r.get("settings").get("producerProps").get("batch.size").asText());
        assertEquals(5, r.get("settings").get("pollTimeoutMs").asInt());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(r.get("counts").get("sent").asLong(), r.get("counts").get("acknowledged").asLong());
    }

    @Test
    void oneMebibyteMessagesRun() throws Exception {
        JsonNode r = e2e("--size", "1MiB", "--rate", "20");
        assertEquals(1 << 20, r.get("workload").get("messageSizeBytes").asInt());
        assertEquals(50, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
    }

    @Test
    void poissonArrivalsAndSeveralPartitionsLoseAndReorderNothing() throws Exception {
        JsonNode r = e2e("--arrival", "poisson", "--partitions", "4", "--producers", "3", "--consumers", "2", "--rate", "600");
        assertEquals("poisson", r.get("workload").get("arrival").asText());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("reordered").asLong());
        assertEquals(0, r.get("counts").get("duplicated").asLong());
    }

    @Test
    void threeTopicsWithTwoSubscriptionsEachDeliverEveryMessageToEverySubscription() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "kafka", "--bootstrap-servers",
                broker.url(), "--partitions", "2");
    }

    private JsonNode throughput(String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("throughput", "--bootstrap-servers", broker.url(), "--output", dir.toString()));
        args.addAll(List.of(flags));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("publisher "), run.out);
        return ResultFiles.json().readTree(dir.resolve("result.json").toFile());
    }

    @Test
    void throughputSendsEveryMessageAndReportsRatesAtBothEnds() throws Exception {
        JsonNode r = throughput("--messages", "20000", "--size", "100", "--acks", "1", "--producers", "2", "--partitions", "2");
        assertEquals("throughput", r.get("command").asText());
        assertEquals(20_000, r.get("counts").get("sent").asLong());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(20_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, ResultTrees.lost(r));
        JsonNode t = r.get("throughput");
        assertTrue(t.get("publisherMsgsPerSec").asDouble() > 0);
        assertEquals(t.get("publisherMsgsPerSec").asDouble() * 100 / 1048576, t.get("publisherMiBPerSec").asDouble(), 1e-6);
        assertTrue(t.get("consumerMsgsPerSec").asDouble() > 0);
        assertTrue(r.get("loadGenerator").get("cpuSeconds").asDouble() > 0);
    }

    @Test
    void aProducerOnlyThroughputRunNeedsNoConsumer() throws Exception {
        JsonNode r = throughput("--messages", "5000", "--consumers", "0", "--acks", "all");
        assertEquals(5_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(0, r.get("counts").get("received").asLong());
        assertEquals(0, r.get("workload").get("consumers").asInt());
    }

    @Test
    void aConsumerStartedAfterProducingReadsTheWholeLogFromTheStart() throws Exception {
        JsonNode r = throughput("--messages", "10000", "--size", "100", "--consume-after-produce");
        assertEquals(10_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        JsonNode t = r.get("throughput");
        // timed from the first message, as ConsumerPerformance times its fetching; the join before it stated apart
        assertTrue(t.get("consumerFirstMessageSeconds").asDouble() > 0, t.toString());
        assertEquals(10_000 / t.get("consumeSeconds").asDouble(), t.get("consumerMsgsPerSec").asDouble(), 1e-6, t.toString());
    }

    @Test
    void aMessageLargerThanTheBrokerAcceptsIsRefusedBeforeTheRunNamingTheSetting() {
        CliRun run = CliRun.of("e2e", "--bootstrap-servers", broker.url(), "--size", "4MiB", "--output", dir.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: --size 4194304 B: this Kafka accepts at most "), run.err);
        assertTrue(run.err.contains("raise the broker's message.max.bytes"), run.err);
        assertFalse(Files.exists(dir.resolve("result.json")));
    }
}
