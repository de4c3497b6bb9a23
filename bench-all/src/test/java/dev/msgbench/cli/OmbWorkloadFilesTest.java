package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.sweep.SweepCommand;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.run.ClientSharing;

/**
 * OpenMessaging Benchmark's own workload files (test resources omb/, as OMB ships them): each is
 * accepted by run --dry-run or refused with the line that says why; producerRate 0 runs as sweep.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OmbWorkloadFilesTest {

    private static final String NL = System.lineSeparator();

    /** A small OMB workload of our own: one topic, one producer, one consumer. */
    private static final String BASE = "name: x\ntopics: 1\npartitionsPerTopic: 1\nmessageSize: 100\n"
            + "subscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nproducersPerTopic: 1\nproducerRate: 1000\n"
            + "testDurationMinutes: 2\n";

    @TempDir
    Path dir;

    @Test
    void aFileWhosePayloadFileIsNotFoundRunsWithRandomPayloadsAndSaysWhereItLooked() throws Exception {
        String file = omb("1-topic-1-partition-1kb.yaml");
        Path folder = Path.of(file).toAbsolutePath().getParent();

        CliRun run = CliRun.of("run", file, "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --size 1024 --producers 1 --consumers 1 --rate 50000 --warmup 1m --duration 15m"
                + NL), run.out);
        assertEquals("warning: " + file + ":21: payloadFile payload/payload-1Kb.data not found (looked for "
                + "payload/payload-1Kb.data, " + folder.resolve("payload/payload-1Kb.data") + ", "
                + folder.getParent().resolve("payload/payload-1Kb.data") + "): payloads are random bytes of messageSize"
                + NL, run.err);
    }

    @Test
    void aPayloadFileBesideOmbsWorkloadsFolderIsSentAsItIsAtItsOwnSize() throws Exception {
        Path workloads = Files.createDirectories(dir.resolve("benchmark/workloads"));
        Path payload = Files.write(Files.createDirectories(dir.resolve("benchmark/payload")).resolve("payload-1Kb.data"),
                new byte[1000]);
        Path file = Files.copy(Path.of(omb("1-topic-1-partition-1kb.yaml")), workloads.resolve("1kb.yaml"));

        CliRun run = CliRun.of("run", file.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --partitions 1 --payload file:" + payload + " --producers 1 --consumers 1 --rate "
                + "50000 --warmup 1m --duration 15m" + NL), run.out);
        assertEquals("warning: " + file + ":21: payloadFile " + payload + " is 1000 B, not messageSize 1024: messages "
                + "are the file's size" + NL, run.err);
    }

    @Test
    void aRandomBytesRatioOutsideZeroToOneIsRefusedAtItsLine() throws Exception {
        Path file = dir.resolve("ratio.yaml");
        CliRun run = dryRun(file, BASE + "useRandomizedPayloads: true\nrandomBytesRatio: 1.5\n");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ":11: 'randomBytesRatio' must be from 0 to 1, got 1.5" + NL, run.err);
    }

    @Test
    void aFileWithKeysRunsWithOmbsTenThousandKeysInTurn() throws Exception {
        String file = omb("1-topic-1-partition-1kb-with-key.yaml");

        CliRun run = CliRun.of("run", file, "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --consumers 1 --keys round-robin --key-count 10000 --rate "), run.out);
    }

    @Test
    void anUnknownKeyDistributorIsRefusedNamingOmbsThree() throws Exception {
        Path file = dir.resolve("keys.yaml");
        Files.writeString(file, Files.readString(Path.of(omb("1-topic-1-partition-1kb-with-key.yaml")))
                .replace("KEY_ROUND_ROBIN", "ZIPF"));

        CliRun run = CliRun.of("run", file.toString(), "--dry-run");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ":19: 'keyDistributor' must be NO_KEY, KEY_ROUND_ROBIN or RANDOM_NANO, got ZIPF"
                + NL, run.err);
    }

    @Test
    void aBacklogFileRunsWithItsBacklogSize() throws Exception {
        String file = omb("1-topic-100-partitions-1kb-4p-4c-200k-backlog.yaml");

        CliRun run = CliRun.of("run", file, "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --consumers 4 --backlog 512GiB --rate 200000 "), run.out);
        CliRun scaled = CliRun.of("run", file, "--dry-run", "--scale", "0.01");
        assertTrue(scaled.out.contains(" --backlog 5243MiB --rate 200000 "), scaled.out);
    }

    @Test
    void aRatioOfRandomizedPayloadsIsACompressiblePayloadAndThePoolIsSaidToBeIgnored() throws Exception {
        String file = omb("max-rate-1-topic-1-partition-1p-1c-1kb.yaml");

        CliRun run = CliRun.of("run", file, "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --size 1024 --payload compressible:0.5 --producers 1 "), run.out);
        assertTrue(run.out.contains(" --rate 10000000 --warmup 1m --duration 5m" + NL), run.out);
        assertEquals("warning: " + file + ":24: randomizedPayloadPoolSize 1000 ignored: payloads are random bytes of "
                + "messageSize, not drawn from a pool" + NL, run.err);
    }

    @Test
    void producerRateZeroIsASweepWithTheFilesSettingsAndNoLatencyObjectiveUnlessGiven() throws Exception {
        String file = omb("max-rate-1-topic-1-partition-1p-1c-1kb-rate-0.yaml");

        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), "run", file, "--dry-run", "--scale", "0.01");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith(file + ": producerRate 0 is OpenMessaging Benchmark's search for the highest rate: "
                + "run as sweep, objective none (the default: a step passes when its target rate is met and nothing is lost, "
                + "as OMB's search judges; --objective p99<=10ms judges latency too)" + NL
                + "    sweep --system kafka --partitions 1 --size 1024 --payload compressible:0.5 --producers 1 --consumers 1 "
                + "--warmup 1s --duration 3s "
                + "--objective none --dry-run" + NL
                + "sweep plan: 1 warm-up run at 1,000 msg/s, not judged;"), run.out);
        assertTrue(run.out.endsWith("nothing run (--dry-run)" + NL), run.out);

        CliRun latency = CliRun.with(ScriptedCellRunner.failingIfRun(), "run", file, "--dry-run", "--objective",
                "p99<=10ms");
        assertEquals(0, latency.exitCode, latency.toString());
        assertTrue(latency.out.contains("run as sweep, objective p99<=10ms" + NL), latency.out);
    }

    @Test
    void producerRateZeroSweepsToTheRateTheSystemKeepsUp() throws Exception {
        // the system keeps up to 5,000 msg/s
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> {
            double rate = ScriptedCellRunner.rate(cell);
            return CellOutcome.of(ScriptedCellRunner.complete(rate, Math.min(rate, 5000), 1000, 2));
        });
        Path out = dir.resolve("out");

        CliRun run = CliRun.with(runner, "run", omb("max-rate-1-topic-1-partition-1p-1c-1kb-rate-0.yaml"), "--system",
                "loopback", "--scale", "0.01", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(NL + "loopback: knee 5,000 msg/s (none), passed 3 of 3 runs;"), run.out);
        JsonNode json = ResultFiles.json().readTree(out.resolve(SweepCommand.JSON).toFile());
        assertEquals(5000, json.get("knee").get("loopback").get("rate").asDouble());
    }

    @Test
    void anObjectiveIsRefusedForAFileThatStatesItsRate() throws Exception {
        String file = omb("1-topic-1-partition-1kb.yaml");

        CliRun run = CliRun.of("run", file, "--dry-run", "--objective", "p99<=1ms");

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.endsWith("error: --objective applies to an OpenMessaging Benchmark file with producerRate: 0 "
                + "(a rate search); " + file + " runs at the rates it states (see java -jar bench-all.jar run --help)" + NL),
                run.err);
    }

    @Test
    void fieldsThatWouldMeasureAnotherWorkloadAreRefusedAndTheRestSaid() throws IOException {
        String base = "name: x\ntopics: 1\npartitionsPerTopic: 1\nmessageSize: 100\nsubscriptionsPerTopic: 1\n"
                + "consumerPerSubscription: 1\nproducersPerTopic: 1\nproducerRate: 1000\ntestDurationMinutes: 2\n";
        Path file = dir.resolve("omb.yaml");

        Files.writeString(file, base + "messageProcessingDelayMs: 5\n");
        assertEquals("error: " + file + ":10: 'messageProcessingDelayMs' must be 0, got 5: consumers here receive as fast "
                + "as they can; a processing delay per message is not supported yet" + NL,
                CliRun.of("run", file.toString(), "--dry-run").err);

        Files.writeString(file, base + "messageProcessingDelayMs: 0\nbacklogDrainRatio: 0.9\nuseRandomizedPayloads: false\n"
                + "randomBytesRatio: 1.0\n");
        CliRun said = CliRun.of("run", file.toString(), "--dry-run");
        assertEquals(0, said.exitCode, said.toString());
        assertEquals("warning: " + file + ":11: backlogDrainRatio 0.9 has no effect: it applies to backlog-and-drain runs, "
                + "and consumerBacklogSizeGB is 0" + NL
                + "warning: " + file + ":12: useRandomizedPayloads false without a payloadFile: payloads are random "
                + "bytes of messageSize" + NL, said.err);
    }

    /** OMB's scripts fill ${ombTestDuration:-15} from the environment; its default runs when the variable is unset. */
    @Test
    void aPlaceholderRunsWithItsDefaultAndSaysSo() throws IOException {
        Path file = dir.resolve("placeholder.yaml");
        CliRun run = dryRun(file, BASE.replace("testDurationMinutes: 2", "testDurationMinutes: ${msgbenchUnsetVariable:-7}"));

        assertAcceptedSaying(run, " --warmup 1m --duration 7m" + NL,
                "warning: " + file + ":9: testDurationMinutes ${msgbenchUnsetVariable:-7} read as 7, its default "
                + "(environment variable msgbenchUnsetVariable is not set)" + NL);

        CliRun unset = dryRun(file, BASE.replace("testDurationMinutes: 2", "testDurationMinutes: ${msgbenchUnsetVariable}"));
        assertEquals("error: " + file + ":9: 'testDurationMinutes' is ${msgbenchUnsetVariable} and environment variable "
                + "msgbenchUnsetVariable is not set (set it, or write a value or a default: "
                + "${msgbenchUnsetVariable:-VALUE})" + NL, unset.err);
    }

    /** OMB's first files had no consumerPerSubscription: one consumer per subscription, as OMB then ran them. */
    @Test
    void aFileWithoutConsumerPerSubscriptionRunsOneConsumerAndSaysSo() throws IOException {
        Path file = dir.resolve("old.yaml");
        CliRun run = dryRun(file, BASE.replace("consumerPerSubscription: 1\n", ""));

        assertAcceptedSaying(run, " --producers 1 --consumers 1 --rate 1000 ",
                "warning: " + file + ": consumerPerSubscription missing: 1 consumer per subscription (as in OMB "
                + "before the key existed)" + NL);
    }

    @Test
    void aSteppedRateRunsAsARateScheduleUpToProducerRateForTheRestOfTheTest() throws IOException {
        Path file = dir.resolve("increment.yaml");
        CliRun run = dryRun(file, BASE + "producerStartRate: 400\nproducerIncrementRate: 300\nproducerIncrementSeconds: 30\n");

        assertEquals(0, run.exitCode, run.toString());
        String schedule = "400/s for 30s, 700/s for 30s, 1000/s for 60s";
        assertTrue(run.out.contains(" --warmup 1m --rate-schedule " + schedule + NL), run.out);
        assertFalse(run.out.contains("--rate 1000"), run.out);
        assertEquals("warning: " + file + ":10: producerStartRate, producerIncrementRate and producerIncrementSeconds run "
                + "as --rate-schedule '" + schedule + "' (the steps up to producerRate, then producerRate for the rest "
                + "of testDurationMinutes; --scale shortens each step)" + NL, run.err);

        CliRun scaled = dryRun(file, BASE + "producerStartRate: 400\nproducerIncrementRate: 300\nproducerIncrementSeconds: 30\n",
                "--scale", "0.1");
        assertEquals(0, scaled.exitCode, scaled.toString());
        assertTrue(scaled.out.contains(" --warmup 6s --rate-schedule 400/s for 3s, 700/s for 3s, 1000/s for 6s" + NL),
                scaled.out);

        assertEquals("error: " + file + ": 'producerIncrementRate' is missing: a stepped rate needs producerStartRate, "
                + "producerIncrementRate and producerIncrementSeconds together" + NL,
                dryRun(file, BASE + "producerStartRate: 400\n").err);
    }

    /** Keys of OMB's forks: the drain's tuning, message selectors and topic readiness, each said in a line. */
    @Test
    void forkKeysThatThisSuiteDoesOtherwiseAreEachSaid() throws IOException {
        Path file = dir.resolve("fork.yaml");
        CliRun run = dryRun(file, BASE.replace("subscriptionsPerTopic: 1", "subscriptionsPerTopic: 2")
                + "consumerBacklogSizeGB: 1\nacceptableBacklog: 50000\nproducerPauseDuringDrain: 1\n"
                + "messageRateReceivedForSubscription: 50\nensureTopicsAreReady: false\n");

        assertAcceptedSaying(run, " --subscriptions-per-topic 2 --backlog 1GiB ",
                "warning: " + file + ":11: acceptableBacklog 50000 ignored: the drain here lasts until the consumers "
                + "have read the whole backlog" + NL
                + "warning: " + file + ":12: producerPauseDuringDrain 1 ignored: the producers here keep their open-loop "
                + "schedule during the drain" + NL
                + "warning: " + file + ":13: messageRateReceivedForSubscription 50 ignored: every subscription here "
                + "receives every message of its topic (message selectors are not supported)" + NL
                + "warning: " + file + ":14: ensureTopicsAreReady false ignored: the run always creates its topics and "
                + "subscriptions before it sends" + NL);
    }

    /** OMB ships files of 20-byte messages; a message here carries a 32-byte header. */
    @Test
    void aMessageSmallerThanTheHeaderRunsAtTheHeadersSizeAndSaysSo() throws IOException {
        Path file = dir.resolve("small.yaml");
        CliRun run = dryRun(file, BASE.replace("messageSize: 100", "messageSize: 20"));

        assertAcceptedSaying(run, " --size 32 ",
                "warning: " + file + ":4: messageSize 20 runs as 32 B: every message here carries the 32-byte "
                + "header (stream, sequence, send times)" + NL);
    }

    /** The shape of the backlog run in measurements.md: --scale shrinks the GiB with the time, --set lowers the rate. */
    @Test
    void aScaledBacklogFileOfTenTopicsRunsWithItsBacklogShrunkAndTheRateSet() throws IOException {
        Path file = dir.resolve("backlog.yaml");
        CliRun run = dryRun(file, BASE.replace("topics: 1", "topics: 10").replace("testDurationMinutes: 2",
                "testDurationMinutes: 15") + "consumerBacklogSizeGB: 1\n", "--scale", "0.03", "--system", "jetstream",
                "--set", "rate=5000");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("e2e --system jetstream --size 100 --producers 10 --consumers 1 --topics 10 "
                + "--backlog 31MiB --rate 5000 --warmup 2s --duration 27s" + NL), run.out);
    }

    /**
     * OMB's files of 1,000 to 1,000,000 topics with 4 producers each: more producers and consumers than
     * threads or connections, so they share one per processor, said in a line each.
     */
    @Test
    void moreProducersAndConsumersThanThreadsRunAsLogicalClientsSharingOnePerProcessorAndSaySo() throws IOException {
        Path file = dir.resolve("many.yaml");
        CliRun run = dryRun(file, BASE.replace("topics: 1", "topics: 1500").replace("producersPerTopic: 1",
                "producersPerTopic: 4"));

        int threads = ClientSharing.defaultSharedThreads();
        assertAcceptedSaying(run, " --producers 6000 --consumers 1 --topics 1500 --rate 1000 ",
                "warning: " + file + ":7: 6,000 producers share " + threads + " threads and connections, one per "
                + "processor (stream s on thread s mod " + threads + "; --set producer-threads=N for others): each "
                + "producer keeps its own schedule, sequence numbers and counts, and each message is measured from its "
                + "own intended time, as OMB too runs its producers on a few threads"
                + NL + "warning: " + file + ":6: 1,500 consumers share " + threads + " connections (consumer i on "
                + "connection i mod " + threads + "; --set consumer-connections=N for others): each consumer keeps its "
                + "own subscription and counts, and a connection serves consumers of the same subscription number on "
                + "different topics" + NL);
    }

    /** OMB's largest file, 1,000,000 topics of 4 producers and 4 consumers: accepted, and its memory said. */
    @Test
    void aMillionTopicsOfFourProducersAndFourConsumersAreAcceptedWithWhatTheyCostInMemory() throws IOException {
        Path file = dir.resolve("1m.yaml");
        CliRun run = dryRun(file, BASE.replace("topics: 1", "topics: 1000000").replace("producersPerTopic: 1",
                "producersPerTopic: 4").replace("consumerPerSubscription: 1", "consumerPerSubscription: 4")
                .replace("producerRate: 1000", "producerRate: 500000"));

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --producers 4000000 --consumers 4 --topics 1000000 --rate 500000 "), run.out);
        assertTrue(run.out.contains(NL + "     memory: 4,000,000 producer streams and 4,000,000 consumers take about "),
                run.out);
        int connections = ClientSharing.defaultSharedConnections(4);
        assertTrue(run.err.contains(":6: 4,000,000 consumers share " + connections + " connections (consumer i on "
                + "connection i mod " + connections + "; "), run.err);
    }

    /** More than 10,000,000, and numbers whose product does not fit in 64 bits, which must not wrap into a small one. */
    @Test
    void moreProducersThanTheRunnerCanCountAreRefusedNamingTheFieldsThatMultiply() throws IOException {
        Path file = dir.resolve("too-many.yaml");
        CliRun run = dryRun(file, BASE.replace("topics: 1", "topics: 3000000").replace("producersPerTopic: 1",
                "producersPerTopic: 4"));
        CliRun overflow = dryRun(dir.resolve("overflow.yaml"), BASE.replace("topics: 1", "topics: 4611686018427387904")
                .replace("producersPerTopic: 1", "producersPerTopic: 4"));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ":2: 'topics' 3000000 x 'producersPerTopic' 4 = 12,000,000 clients, at most "
                + "10,000,000 here" + NL, run.err);
        assertEquals(2, overflow.exitCode, overflow.toString());
        assertTrue(overflow.err.endsWith("= 9,223,372,036,854,775,807 clients, at most 10,000,000 here" + NL),
                overflow.err);
    }

    private static void assertAcceptedSaying(CliRun run, String command, String warnings) {
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(command), run.out);
        assertEquals(warnings, run.err);
    }

    /** Writes an OMB file of our own and checks it with run --dry-run. */
    private static CliRun dryRun(Path file, String contents, String... flags) throws IOException {
        Files.writeString(file, contents);
        List<String> args = new ArrayList<>(List.of("run", file.toString(), "--dry-run"));
        args.addAll(List.of(flags));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static String omb(String name) throws URISyntaxException {
        return Path.of(OmbWorkloadFilesTest.class.getResource("/omb/" + name).toURI()).toString();
    }
}
