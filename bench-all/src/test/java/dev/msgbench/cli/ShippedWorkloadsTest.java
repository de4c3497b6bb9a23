package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.workload.Cell;
import dev.msgbench.cli.workload.Expansion;
import dev.msgbench.cli.workload.WorkloadReader;

/** Every workload file in workloads/ parses, expands and passes every cell's checks (--dry-run). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShippedWorkloadsTest {

    private static final Path WORKLOADS = workloads();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "e1-commit-log-latency.yaml,          20 cells x 3 repetitions",
            "e2-commit-log-throughput.yaml,       16 cells",
            "e3-message-queue-latency.yaml,       25 cells",
            "e5-kafka-low-latency.yaml,           6 cells",
            "e6-redpanda-vs-kafka.yaml,           18 cells",
            "e7-kafka-2m-writes.yaml,             8 cells",
            "e7-record-sizes-and-growing-log.yaml, 6 cells",
            "kafka-share-vs-group-vs-quorum.yaml, 8 cells",
            "omb-1-topic-16-partitions-1kb.yaml,  1 cell",
            "price-of-safety.yaml,                65 cells",
            "tls-cost.yaml,                       24 cells",
    })
    void everyCellOfTheFileIsChecked(String file, String cells) {
        CliRun run = CliRun.of("run", WORKLOADS.resolve(file).toString(), "--dry-run");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(WORKLOADS.resolve(file) + ": " + cells + ", checked; nothing run (--dry-run)"), run.out);
    }

    @Test
    void e3HasFiveConfigurationsForEachOfFourSystemsAndPulsarBeside() {
        List<Cell> cells = Expansion.cells(WorkloadReader.read(WORKLOADS.resolve("e3-message-queue-latency.yaml"), "e3",
                CellCheck.catalogs(Io.system()), "kafka"), CellCheck.catalogs(Io.system()), List.of());
        assertEquals(25, cells.size());
        assertEquals("nats 1KiB @ 20,000/s over 25 connections", cells.get(3).label());
        assertEquals("e2e --system nats --duration 30s --warmup auto --nats-pattern request-reply --size 1KiB --rate 20000 "
                + "--connections 25", String.join(" ", cells.get(3).args(CellCheck.catalogs(Io.system()).of("e2e"))));
        assertEquals(List.of("nats", "redis", "rabbitmq", "kafka", "pulsar"), List.of(cells.get(0).system(),
                cells.get(5).system(), cells.get(10).system(), cells.get(15).system(), cells.get(20).system()));
        assertEquals("e2e --system rabbitmq --duration 30s --warmup auto --queue-type transient --size 256B --rate 3000",
                String.join(" ", cells.get(10).args(CellCheck.catalogs(Io.system()).of("e2e"))));
    }

    @Test
    void theScaledE1RunsInAFewMinutesWarmingUpUntilSettled() {
        CliRun run = CliRun.of("run", WORKLOADS.resolve("e1-commit-log-latency.yaml").toString(), "--dry-run",
                "--scale", "0.1", "--repetitions", "1");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("e2e --system jetstream --rate 50 --duration 3s --warmup auto --size 256B --js-storage memory"),
                run.out);
        assertTrue(run.out.contains("sending time: at most 21m 00s, plus a broker start per run"), run.out);
    }

    @Test
    void anOpenMessagingBenchmarkFileIsOneE2eCellWithItsNumbers() {
        CliRun run = CliRun.of("run", WORKLOADS.resolve("omb-1-topic-16-partitions-1kb.yaml").toString(), "--dry-run");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("  1  1 producer / 1 consumers on 1 topic\n     e2e --system kafka --partitions 16 "
                + "--size 1024 --producers 1 --consumers 1 --rate 50000 --warmup 1m --duration 15m\n"), run.out);
        Path file = WORKLOADS.resolve("omb-1-topic-16-partitions-1kb.yaml");
        Path folder = file.toAbsolutePath().getParent();
        assertEquals("warning: " + file + ":23: payloadFile payload/payload-1Kb.data not found (looked for "
                + "payload/payload-1Kb.data, " + folder.resolve("payload/payload-1Kb.data") + ", "
                + folder.getParent().resolve("payload/payload-1Kb.data") + "): payloads are random bytes of messageSize\n",
                run.err);
    }

    @Test
    void anOpenMessagingBenchmarkFileRunsAgainstTheSystemGivenAndScales() {
        CliRun run = CliRun.of("run", WORKLOADS.resolve("omb-1-topic-16-partitions-1kb.yaml").toString(), "--dry-run",
                "--system", "nats", "--scale", "0.01");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("e2e --system nats --size 1024 --producers 1 --consumers 1 --rate 50000 --warmup 1s "
                + "--duration 9s\n"), run.out);
        assertTrue(run.err.contains(":21: partitionsPerTopic ignored: --system nats has no partitions"), run.err);
    }

    @Test
    void openMessagingBenchmarkFeaturesThatCannotBeHonouredAreRefused() throws IOException {
        String base = "name: x\ntopics: 2\npartitionsPerTopic: 4\nmessageSize: 100\nsubscriptionsPerTopic: 1\n"
                + "consumerPerSubscription: 2\nproducersPerTopic: 3\nproducerRate: 1000\ntestDurationMinutes: 2\n";
        CliRun topics = omb(base + "warmupDurationMinutes: 0\n");
        assertEquals(0, topics.exitCode, topics.toString());
        assertTrue(topics.out.contains("e2e --system kafka --partitions 4 --size 100 --producers 6 --consumers 2 "
                + "--topics 2 --rate 1000 --warmup 0m --duration 2m"), topics.out);
        assertEquals("", topics.err, "topics are mapped, not folded into partitions");
        CliRun fanOut = omb(base.replace("subscriptionsPerTopic: 1", "subscriptionsPerTopic: 3"));
        assertEquals(0, fanOut.exitCode, fanOut.toString());
        assertTrue(fanOut.out.contains("--consumers 2 --topics 2 --subscriptions-per-topic 3 --rate 1000"), fanOut.out);
        CliRun keyed = omb(base + "keyDistributor: RANDOM_NANO\n");
        assertEquals(0, keyed.exitCode, keyed.toString());
        assertTrue(keyed.out.contains("--topics 2 --keys random --key-count 10000 --rate 1000"), keyed.out);

        assertEquals("error: " + file() + ":8: 'producerRate' must be a rate above 0, or 0 (OMB's search for the highest "
                + "rate, run here as sweep), got -1\n", omb(base.replace("producerRate: 1000", "producerRate: -1")).err);
        CliRun backlog = omb(base + "consumerBacklogSizeGB: 5\n");
        assertEquals(0, backlog.exitCode, backlog.toString());
        assertTrue(backlog.out.contains("--topics 2 --backlog 5GiB --rate 1000"), backlog.out);
        assertTrue(omb(base + "driver: kafka\n").err.startsWith("error: " + file() + ":10: unknown key 'driver' (read as "
                + "an OpenMessaging Benchmark workload because of 'topics' at " + file() + ":2; its keys here: name, topics,"));
        assertEquals("error: " + file() + ": 'testDurationMinutes' is missing (an OpenMessaging Benchmark workload needs "
                + "topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, subscriptionsPerTopic "
                + "and testDurationMinutes)\n", omb(base.replace("testDurationMinutes: 2\n", "")).err);
    }

    private CliRun omb(String yaml) throws IOException {
        Files.writeString(dir.resolve("omb.yaml"), yaml);
        return CliRun.of("run", file(), "--dry-run");
    }

    private String file() {
        return dir.resolve("omb.yaml").toString();
    }

    /** workloads/ at the root of the project, wherever the tests run from. */
    static Path workloads() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("workloads").resolve("e1-commit-log-latency.yaml"))) {
                return p.resolve("workloads");
            }
        }
        throw new IllegalStateException("workloads/ not found above " + Path.of("").toAbsolutePath());
    }
}
