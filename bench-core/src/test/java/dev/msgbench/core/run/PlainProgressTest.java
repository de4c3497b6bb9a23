package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.StreamSnapshot;

@Timeout(10)
class PlainProgressTest {

    private static final long S = 1_000_000_000L;
    private static final SystemInfo INFO = new SystemInfo("in-memory", "1", "1", Map.of("acks", "all"), Map.of(), true);

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void theHeaderComesWhenSendingStartsAndALineEveryIntervalWithTheP99SinceTheLastOne() {
        PlainProgress progress = new PlainProgress(out, Duration.ofSeconds(2));
        progress.start(RunSpecs.of(Path.of("unused"), 1000, Duration.ofSeconds(1), Duration.ofSeconds(4)), INFO,
                new RunWindow(0, S, 5 * S));
        progress.sample(S, counts(1000, 1000, 0), latencies(1_000_000)); // not due yet
        progress.sample(2 * S, counts(2000, 1999, 1), latencies(3_000_000));
        progress.sample(3 * S, counts(3000, 3000, 0), latencies(500_000));
        progress.sample(4 * S, counts(4000, 4000, 0), latencies(700_000));
        progress.sample(5_400_000_000L, counts(5000, 4990, 0), latencies());

        assertEquals(List.of(
                "sending: e2e in-memory, 1,000 msg/s of 100 B for 4 s after 1 s warm-up (uniform arrivals, 1 producer, 1 consumer); durability: acks=all",
                "progress: 2 of 5 s, measuring  sent 2,000  received 1,999  lost 1  p99 3.000 ms (last 2 s)",
                "progress: 4 of 5 s, measuring  sent 4,000  received 4,000  lost 0  p99 0.700 ms (last 2 s)"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void aLineEndsWithHowBusyTheMachinesCpusWereSinceTheLastLine() {
        PlainProgress progress = new PlainProgress(out, Duration.ofSeconds(2));
        progress.start(RunSpecs.of(Path.of("unused"), 1000, Duration.ZERO, Duration.ofSeconds(4)), INFO,
                new RunWindow(0, 0, 4 * S));
        progress.sample(S, counts(1000, 1000, 0), latencies(1_000_000), busy(0.5));
        progress.sample(2 * S, counts(2000, 2000, 0), latencies(1_000_000), busy(1.0));

        assertEquals("progress: 2 of 4 s, measuring  sent 2,000  received 2,000  lost 0  p99 1.000 ms (last 2 s)  cpu 75%",
                bytes.toString(StandardCharsets.UTF_8).lines().toList().get(1));
    }

    private static CpuUsage busy(double share) {
        return new CpuUsage(1, 2, share, 0.0, Map.of(0, share, 1, share), 0, 0, null, List.of(), 0.0, 0.0);
    }

    @Test
    void aLineWithNothingReceivedSaysSoInsteadOfAP99() {
        PlainProgress progress = new PlainProgress(out, Duration.ofSeconds(1));
        progress.start(RunSpecs.unpaced(Path.of("unused"), 500, 8), INFO, new RunWindow(0, 0, 30 * S));
        progress.sample(S, counts(500, 0, 0), latencies());

        assertEquals(List.of(
                "sending: throughput in-memory, 500 messages of 100 B as fast as accepted, for at most 30 s (1 producer, 1 consumer); durability: acks=all",
                "progress: 1 s  sent 500  received 0  lost 0  p99 - (last 1 s)"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void aZeroIntervalPrintsTheHeaderAlone() {
        PlainProgress progress = new PlainProgress(out, Duration.ZERO);
        progress.start(RunSpecs.of(Path.of("unused"), 10, Duration.ZERO, Duration.ofSeconds(1)), INFO,
                new RunWindow(0, 0, S));
        progress.sample(S, counts(10, 10, 0), latencies(1_000));

        assertEquals(1, bytes.toString(StandardCharsets.UTF_8).lines().count());
    }

    /** @param gaps sequence numbers the receiver saw skipped: the live line's "lost so far" */
    private static StreamSnapshot counts(long sent, long received, long gaps) {
        return new StreamSnapshot(-1, sent, sent, 0, received, 0, 0, 0, gaps);
    }

    private static Histogram latencies(long... nanos) {
        Histogram h = Recorders.newHistogram();
        for (long n : nanos) {
            h.recordValue(n);
        }
        return h;
    }
}
