package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.time.NanoClock;

/**
 * Experiment E4, the "Ctrl+Z" test: a system answering at a fixed rate freezes for S seconds
 * inside a D-second run. A fraction S/D of requests is then delayed, uniformly from S down to
 * 0, so p(1 - S/2D) is about S/2 and the max about S. A tool with coordinated omission shows
 * neither; our service time (measured from the actual send) must not show it either, which
 * proves the two histograms really differ.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatedOmissionCalibrationTest {

    private static final double D = 4.0;
    private static final double S = 1.0;

    @TempDir
    Path dir;

    @Test
    void aFreezeOfSSecondsShowsAsSOverTwoAtTheMatchingPercentileAndSAtTheMax() throws Exception {
        // 100 req/s, each answered in 0.2 ms (the published 1 ms would let the catch-up after
        // the freeze take 10% of its length and bias the percentile by as much)
        InMemorySystem frozenSystem = new InMemorySystem()
                .answeringIn(200_000, NanoClock.system())
                .freezing((long) (1.5e9), (long) (S * 1e9));
        RunResult r = new LoadRun(RunConfigs.of(dir, 100, Duration.ZERO, Duration.ofMillis((long) (D * 1000))),
                frozenSystem, NanoClock.system(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                null, false).execute();

        double percentile = 100 * (1 - S / (2 * D)); // 87.5
        double latencyAtP = RunResultPercentile.latencyMsAt(dir, "latency.hgrm", percentile) / 1e3;
        double serviceAtP = RunResultPercentile.latencyMsAt(dir, "service.hgrm", percentile) / 1e3;
        double maxSeconds = r.latencyMs().get("max") / 1e3;

        // a busy machine stalls this JVM too, and such a stall adds to every late message's
        // latency; the hiccup meter (a thread sleeping 1 ms) measures it, and only that is allowed
        double stallSeconds = ((Number) ((Map<?, ?>) r.loadGenerator().get("hiccupMs")).get("max")).doubleValue() / 1e3;
        assertEquals(400, r.received());
        assertWithin(S / 2, S / 2 * 0.10, stallSeconds, latencyAtP, "latency at p" + percentile);
        assertWithin(S, S * 0.10, stallSeconds, maxSeconds, "latency max");
        assertTrue(serviceAtP < S / 20, "service time at p" + percentile + " was " + serviceAtP + " s");
    }

    /** {@code actual} within {@code tolerance} of {@code expected}, plus {@code stall} above it. */
    private static void assertWithin(double expected, double tolerance, double stall, double actual, String what) {
        assertTrue(actual >= expected - tolerance && actual <= expected + tolerance + stall,
                what + ": " + actual + " s, expected " + expected + " +- " + tolerance + " s (+ " + stall
                        + " s of stalls the hiccup meter saw)");
    }
}
