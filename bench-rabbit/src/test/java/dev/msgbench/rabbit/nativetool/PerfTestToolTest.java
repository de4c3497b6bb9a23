package dev.msgbench.rabbit.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeSide;

/** PerfTest's command lines for each side, and its averages read from what it printed in compare-native's runs. */
class PerfTestToolTest {

    private static final List<String> JAVA = List.of("java", "-cp", "CP");

    /** A publisher run: its rate is "sending rate avg"; "receiving rate avg" is 0 without a consumer. */
    private static final String PUBLISHER_OUTPUT = """
            id: test-005258-541, time 13.000 s, sent: 11292 msg/s, confirmed: 11292 msg/s, nacked: 0 msg/s, \
            min/median/75th/95th/99th confirm latency: 8013/65353/102195/248276/258499 µs
            test stopped (Producer reached message limit)
            id: test-005258-541, sending rate avg: 7433 msg/s
            id: test-005258-541, receiving rate avg: 0 msg/s
            """;

    private static final String SUBSCRIBER_OUTPUT = """
            id: test-034923-547, time 8.006 s, sent: 1201 msg/s, confirmed: 2199 msg/s, nacked: 0 msg/s, received: \
            14758 msg/s, min/median/75th/95th/99th consumer latency: 1009225/1128613/1230179/1254810/1276780 µs, \
            confirm latency: 20081/184355/228102/367902/374120 µs
            test stopped (Producer reached message limit, Consumer reached message limit)
            id: test-034923-547, sending rate avg: 12313 msg/s
            id: test-034923-547, receiving rate avg: 12313 msg/s
            id: test-034923-547, consumer latency min/median/75th/95th/99th 208/961486/1051358/1445446/1595088 µs
            """;

    private static NativeRequest request(NativeSide side) {
        return new NativeRequest("amqp://127.0.0.1:5672", side, 1024, 200_000, 0, "cmp-3", Map.of());
    }

    @Test
    void theAveragesAreReadFromTheirOwnLines() {
        assertEquals(Optional.of("7433"), PerfTestOutput.sendingRate(PUBLISHER_OUTPUT));
        assertEquals(Optional.of("12313"), PerfTestOutput.receivingRate(SUBSCRIBER_OUTPUT));
        assertEquals(Optional.empty(), PerfTestOutput.sendingRate("id: test-1, time 1.000 s, sent: 11292 msg/s\n"));
    }

    @Test
    void aPublisherRunConfirmsWithoutAConsumerOnAQueueThatExpires() {
        NativeRun run = new PerfTestTool().run(JAVA, request(NativeSide.PUBLISHER));

        assertEquals(List.of(NativeRun.Step.measured("PerfTest", List.of("java", "-cp", "CP", "com.rabbitmq.perf.PerfTest",
                "-h", "amqp://127.0.0.1:5672", "-x", "1", "-y", "0", "-s", "1024", "-C", "200000", "-c", "1000",
                "-u", "cmp-3", "--queue-args", "x-expires=300000"))), run.steps());
        assertEquals(Optional.of(NativeFigure.of("7433")), run.reader().read(step -> PUBLISHER_OUTPUT));
    }

    @Test
    void aSubscriberRunEndsWhenItsConsumerHasEveryMessageWithOursPrefetch() {
        NativeRun run = new PerfTestTool().run(JAVA, request(NativeSide.SUBSCRIBER));

        assertEquals(List.of("java", "-cp", "CP", "com.rabbitmq.perf.PerfTest", "-h", "amqp://127.0.0.1:5672", "-x", "1",
                "-y", "1", "-s", "1024", "-C", "200000", "-D", "200000", "-c", "1000", "-q", "100", "-u", "cmp-3",
                "--queue-args", "x-expires=300000"), run.steps().get(0).argv());
        assertEquals(Optional.of(NativeFigure.of("12313")), run.reader().read(step -> SUBSCRIBER_OUTPUT));
    }

    @Test
    void oursConfirmsAsManyAndAcknowledgesEachDeliveryAndBothRunCold() {
        PerfTestTool tool = new PerfTestTool();
        assertEquals(List.of("--acks", "1", "--max-unconfirmed", "1000", "--consumers", "0"),
                tool.matchingFlags(request(NativeSide.PUBLISHER)));
        assertEquals(List.of("--acks", "1", "--max-unconfirmed", "1000", "--consumers", "1", "--consumer-ack", "manual",
                "--prefetch", "100"), tool.matchingFlags(request(NativeSide.SUBSCRIBER)));
        assertEquals(false, tool.warms(NativeSide.PUBLISHER));
        assertEquals("PerfTest receiving rate, 1 producer (confirms) and 1 consumer (ack each, prefetch 100) vs our "
                + "consumer msg/s, the same", tool.compared(request(NativeSide.SUBSCRIBER)));
    }

    @Test
    void onStreamsItSpeaksAmqpToAStreamQueueOfItsOwnReadFromTheStart() {
        PerfTestTool tool = PerfTestTool.onStreamQueues();

        assertEquals(List.of("java", "-cp", "CP", "com.rabbitmq.perf.PerfTest", "-h", "amqp://127.0.0.1:5672", "-x", "1",
                "-y", "0", "-s", "1024", "-C", "200000", "-c", "1000", "-u", "cmp-3", "-sq"),
                tool.run(JAVA, request(NativeSide.PUBLISHER)).steps().get(0).argv());
        assertEquals(List.of("java", "-cp", "CP", "com.rabbitmq.perf.PerfTest", "-h", "amqp://127.0.0.1:5672", "-x", "1",
                "-y", "1", "-s", "1024", "-C", "200000", "-D", "200000", "-c", "1000", "-q", "100", "-u", "cmp-3", "-sq",
                "--stream-consumer-offset", "first"), tool.run(JAVA, request(NativeSide.SUBSCRIBER)).steps().get(0).argv());
        assertEquals(List.of("--acks", "all", "--max-unconfirmed", "1000", "--consumers", "0"),
                tool.matchingFlags(request(NativeSide.PUBLISHER)));
        assertEquals(List.of("--acks", "all", "--max-unconfirmed", "1000", "--consumers", "1"),
                tool.matchingFlags(request(NativeSide.SUBSCRIBER)));
        assertEquals("PerfTest over AMQP to a stream queue (-sq), sending rate, confirms (-c 1000), no consumer vs our "
                + "publisher over the stream protocol, confirmed msg/s (--acks all, --max-unconfirmed 1000): two "
                + "protocols, the same kind of stream on the same node", tool.compared(request(NativeSide.PUBLISHER)));
    }
}
