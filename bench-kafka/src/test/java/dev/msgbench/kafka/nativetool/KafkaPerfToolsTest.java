package dev.msgbench.kafka.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;

/** The commands of a Kafka comparison's runs, and which line of which tool gives the figure. */
class KafkaPerfToolsTest {

    private static final List<String> JAVA = List.of("java", "-cp", "CP");
    private static final String T = "org.apache.kafka.tools.";

    private static NativeRequest request(NativeSide side, long warmup) {
        return transactional(side, warmup, "none");
    }

    private static NativeRequest transactional(NativeSide side, long warmup, String transactionMs) {
        return new NativeRequest("127.0.0.1:9092", side, 100, 1000, warmup, "cmp-7",
                Map.of(KafkaPerfTools.TRANSACTION_MS, transactionMs));
    }

    @Test
    void aTransactionalPublisherRunGivesBothToolsTheSameTransactionLengthWithAcksAll() {
        NativeRun run = KafkaPerfTools.run(JAVA, transactional(NativeSide.PUBLISHER, 500, "100"));

        assertEquals(List.of("java", "-cp", "CP", T + "ProducerPerformance", "--topic", "cmp-7", "--num-records", "1500",
                "--warmup-records", "500", "--record-size", "100", "--throughput", "-1", "--transactional-id", "cmp-7-txn",
                "--transaction-duration-ms", "100", "--producer-props", "bootstrap.servers=127.0.0.1:9092", "acks=all"),
                run.steps().get(1).argv());
        KafkaPerfTools tool = new KafkaPerfTools();
        assertEquals(List.of("--acks", "all", "--consumers", "0", "--transactions", "100ms"),
                tool.matchingFlags(transactional(NativeSide.PUBLISHER, 500, "100")));
        assertEquals("ProducerPerformance records/sec (acks=all, --transaction-duration-ms 100, one producer that commits "
                + "inline) vs our publisher msg/s (--acks all --transactions 100ms, two producers per stream taking turns); "
                + "the tool counts a record when its batch is acknowledged, before the commit, ours when its "
                + "transaction's commit returns",
                tool.compared(transactional(NativeSide.PUBLISHER, 0, "100")));
        // transactions are the producer's: the subscriber side is the one without them
        assertEquals(tool.matchingFlags(request(NativeSide.SUBSCRIBER, 0)),
                tool.matchingFlags(transactional(NativeSide.SUBSCRIBER, 0, "100")));
        assertEquals(KafkaPerfTools.run(JAVA, request(NativeSide.SUBSCRIBER, 0)).steps(),
                KafkaPerfTools.run(JAVA, transactional(NativeSide.SUBSCRIBER, 0, "100")).steps());
    }

    @Test
    void aTransactionLengthThatIsNotAWholeNumberOfMillisecondsIsRefusedNamingTheKnob() {
        UserError e = assertThrows(UserError.class, () -> KafkaPerfTools.run(JAVA, transactional(NativeSide.PUBLISHER, 0, "50ms")));
        assertEquals("knob kafka-transaction-ms must be a whole number of at least 1, got '50ms'", e.getMessage());
    }

    @Test
    void aColdPublisherRunMakesATopicProducesAndDeletesIt() {
        NativeRun run = KafkaPerfTools.run(JAVA, request(NativeSide.PUBLISHER, 0));

        assertEquals(List.of(
                new Step("topic cmp-7", Role.SETUP, List.of("java", "-cp", "CP", T + "TopicCommand", "--bootstrap-server",
                        "127.0.0.1:9092", "--create", "--topic", "cmp-7", "--partitions", "1", "--replication-factor", "1"),
                        ".topic"),
                new Step("ProducerPerformance", Role.MEASURED, List.of("java", "-cp", "CP", T + "ProducerPerformance",
                        "--topic", "cmp-7", "--num-records", "1000", "--record-size", "100", "--throughput", "-1",
                        "--producer-props", "bootstrap.servers=127.0.0.1:9092", "acks=1"), ""),
                new Step("deleting topic cmp-7", Role.CLEANUP, List.of("java", "-cp", "CP", T + "TopicCommand",
                        "--bootstrap-server", "127.0.0.1:9092", "--delete", "--topic", "cmp-7"), ".topic")),
                run.steps());
        assertEquals(Optional.of(NativeFigure.of("26906.312221")), run.reader().read(step -> step.name().equals(
                "ProducerPerformance") ? "500000 records sent, 26906.312221 records/sec (2.57 MB/sec), 4484.25 ms avg "
                + "latency, 5462.00 ms max latency, 4649 ms 50th, 5327 ms 95th, 5415 ms 99th, 5441 ms 99.9th.\n" : ""));
    }

    @Test
    void aWarmPublisherRunSendsTheWarmupFirstAndTheBrokerServedItAtTheWholeRunsRate() {
        NativeRun run = KafkaPerfTools.run(JAVA, request(NativeSide.PUBLISHER, 500));

        assertEquals(List.of("java", "-cp", "CP", T + "ProducerPerformance", "--topic", "cmp-7", "--num-records", "1500",
                "--warmup-records", "500", "--record-size", "100", "--throughput", "-1", "--producer-props",
                "bootstrap.servers=127.0.0.1:9092", "acks=1"), run.steps().get(1).argv());
        String output = """
                1500 records sent, 1000.0 records/sec (0.10 MB/sec), 1.00 ms avg latency, 2.00 ms max latency, 1 ms 50th, \
                1 ms 95th, 1 ms 99th, 1 ms 99.9th.
                1000 steady state records sent, 1200.5 records/sec (0.11 MB/sec), 1.00 ms avg latency, 2.00 ms max latency, \
                1 ms 50th, 1 ms 95th, 1 ms 99th, 1 ms 99.9th.
                """;
        assertEquals(Optional.of(new NativeFigure(new BigDecimal("1200.5"), new BigDecimal("1.500"))),
                run.reader().read(step -> step.name().equals("ProducerPerformance") ? output : ""));
    }

    @Test
    void aSubscriberRunFillsTheTopicThenReadsItInAGroupOfItsOwnWithTheClientsSocketBuffer() {
        NativeRun run = KafkaPerfTools.run(JAVA, request(NativeSide.SUBSCRIBER, 0));

        assertEquals(List.of("topic cmp-7", "ProducerPerformance", "ConsumerPerformance", "deleting topic cmp-7"),
                run.steps().stream().map(Step::name).toList());
        assertEquals(new Step("ConsumerPerformance", Role.MEASURED, List.of("java", "-cp", "CP", T + "ConsumerPerformance",
                "--bootstrap-server", "127.0.0.1:9092", "--topic", "cmp-7", "--group", "cmp-7", "--num-records", "1000",
                "--socket-buffer-size", "65536"), ".consumer"), run.steps().get(2));
        assertEquals(Optional.of(NativeFigure.of("414937.7593")), run.reader().read(step -> step.name().equals(
                "ConsumerPerformance") ? "2026-11-25 03:47:53:100, 2026-11-25 03:47:54:329, 19.0735, 15.5195, 200000, "
                + "162733.9300, 747, 482, 39.5715, 414937.7593\n" : ""));
    }

    @Test
    void aWarmSubscriberRunReadsTheWarmupTooAndIsReadFromItsProgressLines() {
        NativeRun run = KafkaPerfTools.run(JAVA, request(NativeSide.SUBSCRIBER, 100));

        assertEquals(List.of("--num-records", "1100", "--socket-buffer-size", "65536", "--show-detailed-stats",
                "--reporting-interval", "250"), run.steps().get(2).argv().subList(10, 17));
        assertEquals(Optional.of(NativeFigure.of("4000.0000")), run.reader().read(step -> step.name().equals(
                "ConsumerPerformance") ? """
                2026-11-25 23:59:59:900, 0, 0.0953, 0.3815, 1000, 4000.0000, 0, 250, 0.3815, 4000.0000
                2026-11-26 00:00:00:150, 0, 0.1907, 0.3815, 2000, 4000.0000, 0, 250, 0.3815, 4000.0000
                """ : ""));
    }

    @Test
    void oursGetsTheToolsSettingsAndEachSideSaysWhatItCompares() {
        KafkaPerfTools tool = new KafkaPerfTools();
        assertEquals(List.of("--acks", "1", "--consumers", "0"), tool.matchingFlags(request(NativeSide.PUBLISHER, 0)));
        assertEquals(List.of("--acks", "1", "--consume-after-produce", "--consumers", "1", "--consumer-prop",
                "check.crcs=false"), tool.matchingFlags(request(NativeSide.SUBSCRIBER, 0)));
        assertEquals("ProducerPerformance records/sec (acks=1) vs our publisher msg/s (--acks 1)",
                tool.compared(request(NativeSide.PUBLISHER, 0)));
        assertEquals(", ConsumerPerformance: from its first progress line past the first 3000000 records to its last",
                tool.warmupNote(request(NativeSide.SUBSCRIBER, 3_000_000)));
        assertEquals(8_000_000, tool.defaultMessages(511));
        assertEquals(2_000_000, tool.defaultMessages(512));
    }
}
