package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.result.MessageSizeFigures;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.RateSchedule;

/** A rate schedule and a size distribution on the fake clock: every count exact. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShapedRunTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);

    private RunResult run(RunSpec config) throws Exception {
        return FakeClockRuns.loadRun(config, new InMemorySystem(clock), clock,
                new PrintStream(out, true, StandardCharsets.UTF_8)).execute();
    }

    private RunSpec config(Pacing pacing, int producers, MessageSizes sizes) {
        return new RunSpec("e2e", "in-memory", pacing, 100, producers, 1, 42, Duration.ofMillis(300),
                Duration.ofSeconds(5), dir, false, Map.of("local", true)).withSizes(sizes);
    }

    @Test
    void aRateScheduleSendsExactlyItsMessagesAfterAWarmUpAtItsFirstRate() throws Exception {
        RateSchedule schedule = RateSchedule.parse("1000/s for 1s, 1000/s to 3000/s over 1s, 2 x (4000/s for 250ms, 0/s for 250ms)");
        RunResult r = run(config(Pacing.FixedRate.scheduled(schedule, Arrival.UNIFORM, Duration.ofMillis(500)), 2,
                MessageSizes.fixed(100)));

        // warm-up 500 at 1000/s; measured 1000 + 2000 + 2 x 1000
        assertEquals(500 + 5_000, r.counts().sent());
        assertEquals(5_000, r.counts().measuredSent());
        assertEquals(5_500, r.counts().received());
        assertEquals(0, r.counts().lost() + r.counts().unsent());
        assertEquals(5_000 / 3.0, r.rates().targetMsgsPerSec(), 1e-9);
        assertFalse(r.rates().targetMissed());
        assertEquals(schedule.spec(), r.workload().rateSchedule());
        assertEquals(3, r.workload().durationSeconds());
        assertNull(r.steadiness());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("rate schedule (after the warm-up at its first rate): "
                + "1000/s for 1s, 1000/s to 3000/s over 1s, 4000/s for 250ms, 0/s for 250ms, 4000/s for 250ms, 0/s for 250ms"));
    }

    @Test
    void sizesFromADistributionAreSentAtTheirOwnLengthsAndCountedToTheByte() throws Exception {
        MessageSizes sizes = MessageSizes.parse("weights:100B=3,1KiB=1");
        RunResult r = run(config(new Pacing.FixedRate(2_000, Arrival.UNIFORM, Duration.ZERO, Duration.ofSeconds(2)), 1,
                sizes));
        MessageSizeFigures figures = r.workload().messageSizes();

        // what one stream draws with the seed the run gives it: the engine's seeds are its own, so draw
        // the run's sizes back from the received bytes and the counts
        long large = (figures.sentBytes() - 100L * 4_000) / (1_024 - 100);
        assertEquals(4_000, r.counts().received());
        assertEquals(figures.sentBytes(), figures.receivedBytes());
        assertEquals(100L * (4_000 - large) + 1_024L * large, figures.sentBytes());
        assertEquals(1_000, large, 100);
        assertEquals(1_024, r.workload().messageSizeBytes());
        assertEquals("weights:100B=3,1KiB=1", figures.distribution());
        assertEquals(100, figures.minBytes());
        assertEquals(100, figures.p50Bytes());
        assertEquals(1_024, figures.p99Bytes());
        assertEquals(1_024, figures.maxBytes());
        assertEquals(figures.sentBytes() / 4_000.0, figures.meanBytes(), 0.5);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("sizes weights:100B=3,1KiB=1: mean "),
                out.toString(StandardCharsets.UTF_8));

        JsonNode json = ResultFiles.json().readTree(dir.resolve("result.json").toFile()).get("workload");
        assertEquals(figures.sentBytes(), json.get("messageSizes").get("sentBytes").asLong());
    }

    @Test
    void theSameSeedSendsTheSameSizes() throws Exception {
        MessageSizes sizes = MessageSizes.parse("uniform:100B-10KiB");
        Pacing pacing = new Pacing.FixedRate(1_000, Arrival.UNIFORM, Duration.ZERO, Duration.ofMillis(500));
        long first = run(config(pacing, 1, sizes)).workload().messageSizes().sentBytes();
        long second = run(config(pacing, 1, sizes).withOutputDir(dir.resolve("again"))).workload().messageSizes()
                .sentBytes();

        assertEquals(first, second);
        assertEquals(500 * 5_170.0, first, 500 * 5_170.0 * 0.1);
    }
}
