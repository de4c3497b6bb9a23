package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.Percentiles;
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
        e2eRun(flags);
        return ResultFiles.json().readTree(dir.resolve("result.json").toFile());
    }

    /** The run itself, exit code 0 asserted: its output says what the summary shows. */
    private CliRun e2eRun(String... flags) {
        List<String> args = new ArrayList<>(List.of("e2e", "--bootstrap-servers", broker.url(), "--duration", "2s",
                "--warmup", "500ms", "--output", dir.toString()));
        if (!List.of(flags).contains("--rate")) {
            args.addAll(List.of("--rate", "200"));
        }
        args.addAll(List.of(flags));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.toString());
        return run;
    }

    @Test
    void aShareGroupDeliversEveryMessageAtLeastOnceAndItsForcedRedeliveriesAreCountedNotCalledFaults() throws Exception {
        // two consumers share two partitions; each gives back one record in ten it sees first, so the broker must redeliver
        CliRun run = e2eRun("--kafka-consumer", "share", "--share-release-every", "10", "--partitions", "2",
                "--consumers", "2", "--rate", "400");
        JsonNode r = ResultTrees.complete(dir);
        JsonNode counts = r.get("counts");
        assertEquals(counts.get("sent").asLong(), counts.get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        long duplicated = counts.get("duplicated").asLong();
        assertTrue(duplicated > 0, "the released records came back: " + counts);
        JsonNode delivery = r.get("settings").get("delivery");
        assertEquals("Kafka share group: at-least-once, no order promised", delivery.get("label").asText());
        assertEquals("not promised: reorders are counted, not faults", delivery.get("order").asText());
        assertEquals("by design (at-least-once): each is counted as a duplicate, not as a fault",
                delivery.get("redeliveries").asText());
        // Kafka's delivery count saw exactly the copies the core counted, and no more came back than were released
        Matcher witness = Pattern.compile("Kafka's delivery count: ([\\d,]+) records received more than once, ([\\d,]+) "
                + "released on purpose \\(one first delivery in 10\\)").matcher(delivery.get("witness").asText());
        assertTrue(witness.matches(), delivery.get("witness").asText());
        assertEquals(duplicated, Long.parseLong(witness.group(1).replace(",", "")));
        assertTrue(duplicated <= Long.parseLong(witness.group(2).replace(",", "")), delivery.toString());
        assertEquals("share group (KafkaShareConsumer)", r.get("settings").get("consumer").asText());
        assertEquals(10, r.get("settings").get("shareReleaseEvery").asInt());
        assertEquals(1, r.get("settings").get("shareVersion").asInt(), "share groups are on in a fresh Kafka 4.3");
        assertEquals("share group: each record acknowledged (ACCEPT), explicit",
                r.get("durability").get("consumerCommit").asText());
        // the summary names them as what the system promised, and nothing calls them lost or broken
        assertTrue(run.out.contains(String.format(Locale.US, "lost 0   duplicated %,d (redelivered)   reordered", duplicated)),
                run.out);
        assertTrue(run.out.contains(String.format(Locale.US, "  delivery: Kafka share group: at-least-once, no order "
                + "promised: %,d redeliveries counted as duplicates, not faults; ", duplicated)), run.out);
        assertFalse(run.out.contains("PROMISE BROKEN"), run.out);
        for (JsonNode warning : r.get("warnings")) {
            assertFalse(warning.asText().contains("lost"), warning.asText());
        }
    }

    /**
     * Two workers of one transactional run of compressible payloads, run one after the other (each
     * consumes only its own topic), merged: the aborts summed, the commit histograms added (never
     * their percentiles), and the broker's counts of each worker's own topic summed, the ratio
     * taken once of the sums.
     */
    @Test
    void theWorkersOfATransactionalCompressedRunMergeIntoSummedAbortsAddedCommitsAndTheRatioOfSummedBytes()
            throws Exception {
        List<JsonNode> workers = workers("--producers", "2", "--consumers", "2", "--rate", "500", "--transactions", "50", "--abort-every", "3",
                "--size", "1KiB", "--payload", "compressible:0.1", "--compression", "lz4", "--force");
        JsonNode merged = ResultTrees.complete(dir.resolve("merged"));

        long aborted = 0;
        long bytes = 0;
        long sentBytes = 0;
        Histogram commits = Recorders.newHistogram();
        for (int index = 0; index < 2; index++) {
            JsonNode worker = workers.get(index);
            assertEquals(0, ResultTrees.lost(worker));
            aborted += worker.get("counts").get("aborted").asLong();
            JsonNode counted = worker.get("brokerBytes");
            assertTrue(counted.get("bytes").asLong() < counted.get("sentBytes").asLong(), "lz4 saved: " + counted);
            bytes += counted.get("bytes").asLong();
            sentBytes += counted.get("sentBytes").asLong();
            commits.add(ResultFiles.readHistogramLog(dir.resolve("worker-" + index).resolve(ResultFiles.COMMIT_LOG), "-"));
        }
        assertTrue(aborted > 0, "each worker aborted every third transaction");
        assertEquals(aborted, merged.get("counts").get("aborted").asLong());
        assertEquals(0, merged.get("counts").get("abortedDelivered").asLong());
        assertEquals(0, ResultTrees.lost(merged));
        assertEquals(ResultFiles.json().valueToTree(Percentiles.inMillis(commits)), merged.get("latenciesMs").get("commit"));
        JsonNode mergedBytes = merged.get("brokerBytes");
        assertEquals(bytes, mergedBytes.get("bytes").asLong());
        assertEquals(sentBytes, mergedBytes.get("sentBytes").asLong());
        assertEquals(Math.round(bytes * 10_000.0 / sentBytes) / 10_000.0, mergedBytes.get("ratio").asDouble(), 0);
        assertEquals("kafka: the run's partition logs (describeLogDirs, one replica each)", mergedBytes.get("counter").asText());
    }

    /**
     * Worker 0 and then worker 1 of a run of {@code flags} over --workers 2, each with its own topic,
     * then merged into dir/merged; gives their results.
     */
    private List<JsonNode> workers(String... flags) throws Exception {
        List<JsonNode> workers = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            List<String> args = new ArrayList<>(List.of("e2e", "--bootstrap-servers", broker.url(), "--workers", "2",
                    "--worker-index", String.valueOf(index), "--warmup", "500ms", "--duration", "2s", "--quiet",
                    "--output", dir.toString()));
            args.addAll(List.of(flags));
            CliRun worker = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, worker.exitCode, worker.toString());
            workers.add(ResultTrees.complete(dir.resolve("worker-" + index)));
        }
        CliRun merge = CliRun.of("merge", dir.resolve("worker-0").toString(), dir.resolve("worker-1").toString(),
                "--output", dir.resolve("merged").toString());
        assertEquals(0, merge.exitCode, merge.toString());
        return workers;
    }

    @Test
    void aShareGroupRefusesConsumersSharingAConnectionInOneLine() {
        CliRun run = CliRun.of("e2e", "--bootstrap-servers", broker.url(), "--kafka-consumer", "share", "--topics", "2",
                "--producers", "2", "--consumer-connections", "1", "--rate", "100", "--duration", "1s",
                "--output", dir.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --consumer-connections applies to --kafka-consumer group only: a share consumer reads the "
                + "share group of one topic, got --consumer-connections 1 for 2 consumers" + System.lineSeparator(),
                run.err, run.toString());
    }

    @Test
    void aConsumerGroupPromisesOrderAndSaysNothingOfRedeliveries() throws Exception {
        CliRun run = e2eRun("--kafka-consumer", "group");
        JsonNode r = ResultTrees.complete(dir);
        assertEquals("consumer group (KafkaConsumer)", r.get("settings").get("consumer").asText());
        assertFalse(r.get("settings").has("delivery"), r.get("settings").toString());
        assertFalse(run.out.contains("delivery:"), run.out);
        assertFalse(run.out.contains("(redelivered)"), run.out);
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
    void abortedTransactionsAreNeverDeliveredToReadCommittedConsumersAndCountApartFromLosses() throws Exception {
        // 1,250 messages in 25 transactions of 50; the 3rd, 6th, .. 24th aborted: 8 of them
        CliRun run = run("--rate", "500", "--transactions", "50", "--abort-every", "3");

        JsonNode r = ResultFiles.json().readTree(dir.resolve("result.json").toFile());
        JsonNode counts = r.get("counts");
        assertEquals(1_250, counts.get("sent").asLong());
        assertEquals(400, counts.get("aborted").asLong());
        assertEquals(0, counts.get("abortedDelivered").asLong());
        assertEquals(850, counts.get("acknowledged").asLong());
        assertEquals(850, counts.get("received").asLong());
        assertEquals(0, counts.get("acknowledgedLost").asLong());
        assertEquals(0, counts.get("unacknowledgedLost").asLong());
        assertEquals(0, counts.get("sendErrors").asLong());
        assertEquals("read_committed", r.get("settings").get("isolationLevel").asText());
        assertEquals("50 messages", r.get("settings").get("transactions").get("size").asText());
        assertEquals(3, r.get("settings").get("transactions").get("abortEvery").asInt());
        assertTrue(r.get("latenciesMs").get("commit").get("count").asLong() > 0, r.get("latenciesMs").toString());
        assertTrue(run.out.contains("aborted on purpose 400 (never acknowledged, not counted as lost)   delivered all the "
                + "same 0"), run.out);
        assertTrue(run.out.contains("commit ms"), run.out);
    }

    @Test
    void readUncommittedConsumersReceiveAbortedTransactionsAsExpected() throws Exception {
        CliRun run = run("--rate", "500", "--transactions", "50", "--abort-every", "3", "--isolation-level",
                "read_uncommitted");

        JsonNode r = ResultFiles.json().readTree(dir.resolve("result.json").toFile());
        JsonNode counts = r.get("counts");
        assertEquals(400, counts.get("aborted").asLong());
        // the drain waits for the committed messages only: the last aborted ones may still be on their way
        long delivered = counts.get("abortedDelivered").asLong();
        assertTrue(delivered > 0 && delivered <= 400, counts.toString());
        assertEquals(850 + delivered, counts.get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("read_uncommitted", r.get("settings").get("isolationLevel").asText());
        assertTrue(run.out.contains(String.format(Locale.US, "warning: aborted messages delivered: %,d deliveries of the "
                + "400 messages aborted on purpose; expected: consumers in isolation.level read_uncommitted read the "
                + "records of aborted transactions", delivered)), run.out);
    }

    @Test
    void transactionsClosedByTimeCommitEveryMessage() throws Exception {
        run("--rate", "500", "--transactions", "100ms");

        JsonNode r = ResultFiles.json().readTree(dir.resolve("result.json").toFile());
        assertEquals(1_250, r.get("counts").get("acknowledged").asLong());
        assertEquals(1_250, r.get("counts").get("received").asLong());
        assertFalse(r.get("counts").has("aborted"), "none aborted: no count");
        assertEquals("100ms", r.get("settings").get("transactions").get("size").asText());
    }

    private CliRun run(String... flags) {
        List<String> args = new ArrayList<>(List.of("e2e", "--bootstrap-servers", broker.url(), "--duration", "2s",
                "--warmup", "500ms", "--output", dir.toString()));
        args.addAll(List.of(flags));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.toString());
        return run;
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

    /**
     * Unpaced, a transaction takes at most half the stream's limit, so one producer takes the sends
     * while the other commits: at --max-outstanding 50, 1,000 messages go in 40 transactions of 25
     * (not 40, --transactions' own count), every 4th aborted, and only committed ones are delivered.
     */
    @Test
    void throughputInTransactionsClosesEachAtHalfTheLimitAndDeliversOnlyCommittedOnes() throws Exception {
        JsonNode r = throughput("--messages", "1000", "--size", "100", "--acks", "all", "--max-outstanding", "50",
                "--transactions", "40", "--abort-every", "4");
        JsonNode counts = r.get("counts");
        assertEquals(1_000, counts.get("sent").asLong());
        assertEquals(250, counts.get("aborted").asLong());
        assertEquals(750, counts.get("acknowledged").asLong());
        assertEquals(750, counts.get("received").asLong());
        assertEquals(0, counts.get("abortedDelivered").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(30, r.get("latenciesMs").get("commit").get("count").asLong(), r.get("latenciesMs").toString());
        assertEquals(50, r.get("workload").get("maxOutstanding").asInt());
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

    @Test
    void aCompressedRunOfCompressiblePayloadsStoresFewerBytesThanARandomOneByTheBrokersOwnCount() throws Exception {
        JsonNode random = throughput("--messages", "20000", "--size", "1KiB");
        JsonNode compressed = throughput("--messages", "20000", "--size", "1KiB", "--payload", "compressible:0.1",
                "--compression", "lz4", "--force");

        for (JsonNode r : List.of(random, compressed)) {
            assertEquals(20_000, r.get("counts").get("received").asLong());
            assertEquals(0, ResultTrees.lost(r));
            assertEquals(20_000L * 1_024, r.get("brokerBytes").get("sentBytes").asLong());
            assertEquals("kafka: the run's partition logs (describeLogDirs, one replica each)",
                    r.get("brokerBytes").get("counter").asText());
        }
        assertEquals("random", random.get("workload").get("payload").asText());
        assertEquals("none (the client's default)", random.get("settings").get("compression.type").asText());
        assertEquals("compressible:0.1", compressed.get("workload").get("payload").asText());
        assertEquals("lz4", compressed.get("settings").get("compression.type").asText());
        // random bodies: every byte sent is stored, with Kafka's framing on top
        long randomBytes = random.get("brokerBytes").get("bytes").asLong();
        assertTrue(randomBytes >= 20_000L * 1_024, random.get("brokerBytes").toString());
        // a tenth of each body random, lz4: near a tenth of the bytes, and far from all of them
        long compressedBytes = compressed.get("brokerBytes").get("bytes").asLong();
        assertTrue(compressedBytes < randomBytes / 4, compressed.get("brokerBytes") + " against " + random.get("brokerBytes"));
        assertTrue(compressed.get("brokerBytes").get("ratio").asDouble() < 0.25, compressed.get("brokerBytes").toString());
    }

    @Test
    void aCodecGivenTwiceIsRefusedBeforeTheRun() {
        CliRun run = CliRun.of("throughput", "--bootstrap-servers", broker.url(), "--compression", "zstd",
                "--producer-prop", "compression.type=gzip", "--output", dir.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --compression sets the producer's compression.type; give either --compression zstd or "
                + "--producer-prop compression.type=gzip, not both", run.err.strip()
                .replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", ""));
        assertFalse(Files.exists(dir.resolve("result.json")));
    }
}
