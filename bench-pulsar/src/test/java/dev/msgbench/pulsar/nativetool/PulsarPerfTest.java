package dev.msgbench.pulsar.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;

/** The commands of a Pulsar comparison's runs, and which step's output gives the figure. */
class PulsarPerfTest {

    private static final List<String> TOOL = List.of("java", "-cp", "CP", "Main", "client.conf");
    private static final String URL = "pulsar://127.0.0.1:6650";
    private static final String TOPIC = "persistent://public/default/cmp-7";

    private static NativeRequest request(NativeSide side, long warmup) {
        return new NativeRequest(URL, side, 100, 1000, warmup, "cmp-7", Map.of());
    }

    private static List<String> produce(String messages) {
        return List.of("java", "-cp", "CP", "Main", "client.conf", "produce", "-u", URL, "-r", "2147483647", "-m",
                messages, "-s", "100", "-bb", "131072", TOPIC);
    }

    @Test
    void aPublisherRunProducesOnATopicOfItsOwnAndIsReadFromItsDoneLine() {
        NativeRun run = PulsarPerf.run(TOOL, request(NativeSide.PUBLISHER, 0));

        assertEquals(List.of(new Step("pulsar-perf produce", Role.MEASURED, produce("1000"), "")), run.steps());
        String output = """
                2026-11-29 18:52:36.781 INFO  [pulsar-perf-producer-exec-1-1] PerformanceProducer - Created 1 producers
                2026-11-29 18:52:38.781 INFO  [pulsar-perf-producer-exec-1-1] PerformanceProducer - ------------- DONE \
                (reached the maximum number: 1000 of production) --------------
                2026-11-29 18:52:46.175 INFO  [perf-client-shutdown] PerformanceProducer - Aggregated throughput stats \
                --- 1099 records sent --- 109.875 msg/s --- 83.829 Mbit/s
                """;
        assertEquals(Optional.of(NativeFigure.of("500.000")), run.reader().read(step -> output));
    }

    @Test
    void aWarmPublisherRunSendsTheWarmupFirstAndSaysHowLongAllOfItsPublishingTook() {
        NativeRun run = PulsarPerf.run(TOOL, request(NativeSide.PUBLISHER, 500));

        assertEquals(List.of(produce("1500")), run.steps().stream().map(Step::argv).toList());
        String output = """
                2026-11-29 18:52:30.000 INFO  [pulsar-perf-producer-exec-1-1] PerformanceProducer - Created 1 producers
                2026-11-29 18:52:40.000 INFO  [main] PerformanceProducer - Throughput produced:     400 msg --- 40.0 msg/s
                2026-11-29 18:52:50.000 INFO  [main] PerformanceProducer - Throughput produced:     900 msg --- 50.0 msg/s
                2026-11-29 18:53:00.000 INFO  [main] PerformanceProducer - Throughput produced:    1400 msg --- 50.0 msg/s
                2026-11-29 18:53:02.000 INFO  [pulsar-perf-producer-exec-1-1] PerformanceProducer - ------------- DONE \
                (reached the maximum number: 1500 of production) --------------
                """;
        assertEquals(Optional.of(new NativeFigure(new BigDecimal("50.000"), new BigDecimal("32.000"))),
                run.reader().read(step -> output));
    }

    @Test
    void aSubscriberRunFillsTheTopicThenReadsItFromTheEarliestMessageInASubscriptionOfItsOwn() {
        NativeRun run = PulsarPerf.run(TOOL, request(NativeSide.SUBSCRIBER, 0));

        assertEquals(List.of(new Step("pulsar-perf produce", Role.MEASURED, produce("1000"), ""),
                new Step("pulsar-perf consume", Role.MEASURED, List.of("java", "-cp", "CP", "Main", "client.conf", "consume",
                        "-u", URL, "-sp", "Earliest", "-ss", "cmp-7", "-m", "1000", TOPIC), ".consumer")), run.steps());
        String consumed = """
                2026-11-29 18:53:08.723 INFO  [pulsar-external-listener-4-1] PerformanceConsumer - ------------------- DONE \
                -----------------------
                2026-11-29 18:53:08.726 INFO  [perf-client-shutdown] PerformanceConsumer - Aggregated throughput stats --- \
                1000 records received --- 265.720 msg/s --- 202.839 Mbit/s --- AckRate: 265.45 msg/s --- ack failed 0 msg
                """;
        assertEquals(Optional.of(NativeFigure.of("265.720")),
                run.reader().read(step -> step.name().equals("pulsar-perf consume") ? consumed : ""));
    }

    @Test
    void onTheSuitesBrokerARunEndsByDeletingItsTopicThroughTheAdminUrlItWasGiven() {
        String url = PerfUrl.of(URL, "http://127.0.0.1:8080");
        NativeRun run = PulsarPerf.run(TOOL, new NativeRequest(url, NativeSide.SUBSCRIBER, 100, 1000, 0, "cmp-7", Map.of()));

        assertEquals(List.of(Role.MEASURED, Role.MEASURED, Role.CLEANUP), run.steps().stream().map(Step::role).toList());
        assertEquals(produce("1000"), run.steps().get(0).argv(), "pulsar-perf is given the service URL alone");
        Step cleanup = run.steps().get(2);
        assertEquals("deleting topic cmp-7", cleanup.name());
        List<String> argv = cleanup.argv();
        assertEquals(List.of("dev.msgbench.pulsar.TopicDeletion", "http://127.0.0.1:8080", "cmp-7"),
                argv.subList(argv.size() - 3, argv.size()));
        assertEquals(new PerfUrl(URL, Optional.empty()), PerfUrl.parse(URL), "a broker of the user's: no admin part");
    }

    @Test
    void oursIsGivenNoConsumerOrReadsWhatWasStoredAndTheWarmupNoteSaysWhereTheWindowStarts() {
        PulsarPerf tool = new PulsarPerf();

        assertEquals(List.of("--consumers", "0"), tool.matchingFlags(request(NativeSide.PUBLISHER, 0)));
        assertEquals(List.of("--consume-after-produce", "--consumers", "1", "--drain-timeout", "10m"),
                tool.matchingFlags(request(NativeSide.SUBSCRIBER, 0)));
        assertEquals(", pulsar-perf consume: from its first 10 s progress line past the first 500 messages to its DONE "
                + "line, none when fewer than half the measured messages came after that line",
                tool.warmupNote(request(NativeSide.SUBSCRIBER, 500)));
    }
}
