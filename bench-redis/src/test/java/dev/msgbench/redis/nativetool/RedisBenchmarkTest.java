package dev.msgbench.redis.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
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

/** redis-benchmark's command lines for pub/sub and Streams, and its --csv read as compare-native's runs printed it. */
class RedisBenchmarkTest {

    private static final String CSV = """
            "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
            "PUBLISH chan xxx","79082.64","0.197","0.016","0.031","0.063","2.039","235.519"
            """;
    private static final Path BENCHMARK = Path.of("/usr/bin/redis-benchmark");
    private static final Path CLI = Path.of("/usr/bin/redis-cli");

    private static NativeRequest request(NativeSide side, String pipeline) {
        return new NativeRequest("redis://127.0.0.1:6380", side, 40, 2_000_000, 0, "cmp-9",
                Map.of("redis-pipeline", pipeline, "redis-client", "direct"));
    }

    @Test
    void theRateIsTheCommandsRowOfTheCsv() {
        assertEquals(Optional.of("79082.64"), RedisBenchmarkOutput.requestsPerSec(CSV));
        assertEquals(Optional.of("12.5"), RedisBenchmarkOutput.requestsPerSec("\"XADD cmp-1 MAXLEN ~ 100000 * m x\",\"12.5\"\n"));
        assertEquals(Optional.empty(), RedisBenchmarkOutput.requestsPerSec("\"test\",\"rps\"\n"));
    }

    @Test
    void aPubSubRunPublishesWithRedisCliSubscribedToItsChannel() {
        NativeRun run = RedisBenchmark.pubSub().run(BENCHMARK, CLI, request(NativeSide.SUBSCRIBER, "16"));

        String payload = "x".repeat(40);
        assertEquals(List.of(
                Step.listener("redis-cli subscriber", List.of("/usr/bin/redis-cli", "-h", "127.0.0.1", "-p", "6380",
                        "PSUBSCRIBE", "cmp-*"), "psubscribe"),
                Step.measured("redis-benchmark", List.of("/usr/bin/redis-benchmark", "-h", "127.0.0.1", "-p", "6380", "-c", "1",
                        "-n", "2000000", "-P", "16", "--csv", "PUBLISH", "cmp-9", payload))), run.steps());
        assertEquals(Optional.of(NativeFigure.of("79082.64")), run.reader().read(step -> step.role() == Role.MEASURED ? CSV : ""));
    }

    @Test
    void aStreamsRunAddsEntriesWithOurOneByteFieldAndHasNoSubscriberFigure() {
        RedisBenchmark streams = RedisBenchmark.streams();
        NativeRun run = streams.run(BENCHMARK, CLI, request(NativeSide.PUBLISHER, "8"));

        assertEquals(List.of("-P", "8", "--csv", "XADD", "cmp-9", "MAXLEN", "~", "100000", "*", "m", "x".repeat(40)),
                run.steps().get(0).argv().subList(9, 20));
        assertEquals(1, run.steps().size());
        assertEquals("redis-benchmark has no Streams reader (XREADGROUP) to compare our consumer with",
                streams.sideRefused(NativeSide.SUBSCRIBER));
        assertNull(streams.sideRefused(NativeSide.PUBLISHER));
        assertEquals(false, streams.warms(NativeSide.SUBSCRIBER));
        assertEquals(List.of(), streams.oursListener(request(NativeSide.PUBLISHER, "16")));
    }

    @Test
    void oursPublishesWithAsManyOutstandingAndTheSameSubscriberListens() {
        RedisBenchmark pubSub = RedisBenchmark.pubSub();
        assertEquals(List.of("--consumers", "0", "--redis-client", "direct", "--max-outstanding", "16"),
                pubSub.matchingFlags(request(NativeSide.PUBLISHER, "16")));
        assertEquals(List.of("redis-cli", "-h", "127.0.0.1", "-p", "6380", "PSUBSCRIBE", "msgbench-*"),
                pubSub.oursListener(request(NativeSide.PUBLISHER, "16")));
        // our own subscriber in place of redis-cli: with both, Redis would write each message twice
        assertEquals(List.of("--consumers", "1", "--redis-client", "direct", "--max-outstanding", "16"),
                pubSub.matchingFlags(request(NativeSide.SUBSCRIBER, "16")));
        assertEquals(List.of(), pubSub.oursListener(request(NativeSide.SUBSCRIBER, "16")));
        assertEquals("redis-benchmark PUBLISH rps, -P 16 vs our publisher msg/s, --redis-client direct; redis-cli "
                + "subscribed for both", pubSub.compared(request(NativeSide.PUBLISHER, "16")));
    }

    @Test
    void aPipelineThatIsNotACountIsRefusedNamingTheKnob() {
        UserError e = assertThrows(UserError.class,
                () -> RedisBenchmark.pubSub().run(BENCHMARK, CLI, request(NativeSide.PUBLISHER, "0")));
        assertEquals("knob redis-pipeline must be a whole number of at least 1, got '0'", e.getMessage());
    }
}
