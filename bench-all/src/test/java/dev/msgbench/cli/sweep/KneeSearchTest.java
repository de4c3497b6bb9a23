package dev.msgbench.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.cli.sweep.KneeSearch;
import dev.msgbench.cli.sweep.KneeSearch.End;
import dev.msgbench.cli.sweep.KneeSearch.Phase;
import dev.msgbench.cli.sweep.KneeSearch.Result;
import dev.msgbench.cli.sweep.KneeSearch.Verdict;
import dev.msgbench.cli.sweep.RateResolution;
import dev.msgbench.cli.sweep.RateStep;

/** The sweep's search on a fake system (a function of the rate): no run, no clock, no sleep. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KneeSearchTest {

    /** A fake system that keeps every run it was asked for, as "phase rate verdict". */
    private static final class FakeSystem implements KneeSearch.Trial {
        private final DoubleFunction<Verdict> verdicts;
        final List<String> runs = new ArrayList<>();

        FakeSystem(DoubleFunction<Verdict> verdicts) {
            this.verdicts = verdicts;
        }

        /** Passes up to the edge, misses above it, every time. */
        static FakeSystem edgeAt(double edge) {
            return new FakeSystem(rate -> rate <= edge ? Verdict.PASS : Verdict.MISS);
        }

        /** The runs at one rate go as scripted, then as {@link #edgeAt}; every other rate as {@link #edgeAt}. */
        static FakeSystem scripted(double rate, List<Verdict> runsThere, double edge) {
            Deque<Verdict> script = new ArrayDeque<>(runsThere);
            return new FakeSystem(r -> r == rate && !script.isEmpty() ? script.poll() : r <= edge ? Verdict.PASS : Verdict.MISS);
        }

        @Override
        public Verdict run(double rate, Phase phase) {
            Verdict v = verdicts.apply(rate);
            runs.add(phase.label + " " + (long) rate + " " + v);
            return v;
        }
    }

    private static KneeSearch search(double start, String step, double max, int repeats, int mustPass, String resolution,
                                     int warmUps) {
        return new KneeSearch(start, RateStep.parse(step), max, repeats, mustPass, RateResolution.parse(resolution), warmUps);
    }

    @Test
    void theRampStopsAtTheFirstMissAndTheBisectionNarrowsTheGapToTheResolution() {
        FakeSystem system = FakeSystem.edgeAt(3000);

        Result result = search(1000, "x2", 1_000_000, 3, 2, "5%", 1).search(system);

        assertEquals(List.of("warm-up 1000 PASS", "ramp 1000 PASS", "ramp 2000 PASS", "ramp 4000 MISS", "repeat 4000 MISS",
                "bisect 3000 PASS", "bisect 3500 MISS", "repeat 3500 MISS", "bisect 3250 MISS", "repeat 3250 MISS",
                "bisect 3125 MISS", "repeat 3125 MISS", "repeat 3000 PASS", "repeat 3000 PASS"), system.runs);
        assertEquals(new Result(3000.0, true, 3125.0, End.BRACKETED, 14), result);
        assertTrue(result.firstMissMsgsPerSec() - result.kneeMsgsPerSec() <= 0.05 * result.kneeMsgsPerSec());
    }

    @Test
    void anAbsoluteResolutionStopsTheBisectionWithinThatManyMessagesPerSecond() {
        Result result = search(1000, "+1000", 10_000, 1, 1, "100", 0).search(FakeSystem.edgeAt(4321));

        assertEquals(4312.0, result.kneeMsgsPerSec());
        assertEquals(4375.0, result.firstMissMsgsPerSec());
        assertEquals(End.BRACKETED, result.end());
    }

    @Test
    void aStepThatMissesOnceAndThenPassesTwicePasses() {
        FakeSystem system = FakeSystem.scripted(2000, List.of(Verdict.MISS, Verdict.PASS, Verdict.PASS), 2000);

        Result result = search(1000, "x2", 4000, 3, 2, "50%", 0).search(system);

        assertEquals(List.of("ramp 1000 PASS", "ramp 2000 MISS", "repeat 2000 PASS", "repeat 2000 PASS",
                "ramp 4000 MISS", "repeat 4000 MISS", "bisect 3000 MISS", "repeat 3000 MISS"), system.runs);
        assertEquals(new Result(2000.0, true, 3000.0, End.BRACKETED, 8), result);
    }

    @Test
    void aNoisySystemWhoseRunsMissNowAndThenBelowItsEdgeStillFindsIt() {
        int[] n = {0};
        // the 2nd run (a ramp step) and the 14th (a repeat of the knee) miss although their rate is below the edge
        FakeSystem system = new FakeSystem(rate -> ++n[0] == 2 || n[0] == 14 || rate > 3000 ? Verdict.MISS : Verdict.PASS);

        Result result = search(1000, "x2", 100_000, 3, 2, "5%", 0).search(system);

        assertEquals(List.of("ramp 1000 PASS", "ramp 2000 MISS", "repeat 2000 PASS", "repeat 2000 PASS", "ramp 4000 MISS",
                "repeat 4000 MISS", "bisect 3000 PASS", "bisect 3500 MISS", "repeat 3500 MISS", "bisect 3250 MISS",
                "repeat 3250 MISS", "bisect 3125 MISS", "repeat 3125 MISS", "repeat 3000 MISS", "repeat 3000 PASS"),
                system.runs);
        assertEquals(new Result(3000.0, true, 3125.0, End.BRACKETED, 15), result);
    }

    @Test
    void aKneeThatFailsItsRepeatsBecomesTheUpperBoundAndTheSearchGoesOnBelowIt() {
        FakeSystem system = FakeSystem.scripted(2000, List.of(Verdict.PASS, Verdict.MISS, Verdict.MISS), 1600);

        Result result = search(1000, "x2", 4000, 3, 2, "25%", 0).search(system);

        assertEquals(List.of("ramp 1000 PASS", "ramp 2000 PASS", "ramp 4000 MISS", "repeat 4000 MISS",
                "bisect 3000 MISS", "repeat 3000 MISS", "bisect 2500 MISS", "repeat 2500 MISS", "repeat 2000 MISS",
                "repeat 2000 MISS",
                "bisect 1500 PASS", "bisect 1750 MISS", "repeat 1750 MISS", "repeat 1500 PASS", "repeat 1500 PASS"),
                system.runs);
        assertEquals(new Result(1500.0, true, 1750.0, End.BRACKETED, 15), result);
    }

    @Test
    void aSystemThatPassesEveryStepStopsAtTheMaximumRateAndRepeatsIt() {
        FakeSystem system = FakeSystem.edgeAt(Double.MAX_VALUE);

        Result result = search(1000, "x2", 5000, 3, 2, "5%", 1).search(system);

        assertEquals(List.of("warm-up 1000 PASS", "ramp 1000 PASS", "ramp 2000 PASS", "ramp 4000 PASS", "ramp 5000 PASS",
                "repeat 5000 PASS", "repeat 5000 PASS"), system.runs);
        assertEquals(new Result(5000.0, true, null, End.MAX_RATE, 7), result);
    }

    @Test
    void aFirstStepThatMissesItsRepeatsFindsNoKneeAndTheWarmUpIsNotJudged() {
        FakeSystem system = FakeSystem.edgeAt(0);

        Result result = search(1000, "x2", 5000, 3, 2, "5%", 1).search(system);

        assertEquals(List.of("warm-up 1000 MISS", "ramp 1000 MISS", "repeat 1000 MISS"), system.runs);
        assertNull(result.kneeMsgsPerSec());
        assertEquals(End.NONE_PASSED, result.end());
    }

    @Test
    void aColdFirstStepThatPassesOnceWarmIsTheKneeBelowTheFirstMiss() {
        boolean[] warm = {false};
        FakeSystem system = new FakeSystem(rate -> {
            Verdict v = warm[0] && rate <= 1000 ? Verdict.PASS : Verdict.MISS;
            warm[0] = true;
            return v;
        });

        Result result = search(1000, "x2", 5000, 3, 2, "5%", 1).search(system);

        assertEquals(List.of("warm-up 1000 MISS", "ramp 1000 PASS", "ramp 2000 MISS", "repeat 2000 MISS",
                "bisect 1500 MISS", "repeat 1500 MISS", "bisect 1250 MISS", "repeat 1250 MISS", "bisect 1125 MISS",
                "repeat 1125 MISS", "bisect 1062 MISS", "repeat 1062 MISS", "bisect 1031 MISS", "repeat 1031 MISS",
                "repeat 1000 PASS", "repeat 1000 PASS"),
                system.runs);
        assertEquals(1000.0, result.kneeMsgsPerSec());
    }

    @Test
    void aRunThatFailsEndsTheSearchWithTheHighestPassSoFarUnconfirmed() {
        FakeSystem system = new FakeSystem(rate -> rate >= 4000 ? Verdict.FAILED : Verdict.PASS);

        Result result = search(1000, "x2", 100_000, 3, 2, "5%", 0).search(system);

        assertEquals(List.of("ramp 1000 PASS", "ramp 2000 PASS", "ramp 4000 FAILED"), system.runs);
        assertEquals(new Result(2000.0, false, null, End.FAILED, 3), result);
    }

    @Test
    void anInterruptedWarmUpEndsTheSearchBeforeAnyStep() {
        FakeSystem system = new FakeSystem(rate -> Verdict.INTERRUPTED);

        Result result = search(1000, "x2", 100_000, 3, 2, "5%", 1).search(system);

        assertEquals(new Result(null, false, null, End.INTERRUPTED, 1), result);
    }

    @Test
    void noSearchMakesMoreRunsThanItsBudgetAndAStraightEdgeNeverReachesIt() {
        for (String step : List.of("x2", "x1.5", "+700")) {
            for (double edge = 0; edge <= 12_000; edge += 37) {
                KneeSearch search = search(500, step, 10_000, 3, 2, "5%", 1);
                FakeSystem system = FakeSystem.edgeAt(edge);
                Result result = search.search(system);
                assertFalse(result.end() == End.BUDGET, step + " edge " + edge + ": " + system.runs);
                assertTrue(result.runs() <= search.maxRuns(), step + " edge " + edge);
                if (result.kneeMsgsPerSec() != null && result.firstMissMsgsPerSec() != null) {
                    assertTrue(result.firstMissMsgsPerSec() - result.kneeMsgsPerSec() <= 0.05 * result.kneeMsgsPerSec(),
                            step + " edge " + edge + ": " + result);
                    assertTrue(result.kneeMsgsPerSec() <= edge && result.firstMissMsgsPerSec() > edge, result.toString());
                }
            }
        }
    }

    @Test
    void aSystemThatKeepsFailingItsKneesIsStoppedByTheBudget() {
        // every rate passes its first run and misses the rest: each knee fails its repeats in turn
        Map<Long, Integer> seen = new HashMap<>();
        FakeSystem system = new FakeSystem(rate -> seen.merge((long) rate, 1, Integer::sum) == 1 ? Verdict.PASS : Verdict.MISS);

        KneeSearch search = search(1000, "+1000", 3000, 3, 2, "1%", 0);
        Result result = search.search(system);

        assertEquals(search.maxRuns(), result.runs(), system.runs.toString());
        assertEquals(End.BUDGET, result.end(), system.runs.toString());
    }

    @Test
    void thePlanCountsTheRampStepsAndTheWorstBisection() {
        KneeSearch search = search(1000, "x2", 1_000_000, 3, 2, "5%", 1);
        assertEquals(11, search.rampRates().size());
        assertEquals(1_000_000.0, search.rampRates().get(10));
        assertEquals(5, search.maxBisectSteps());
        assertEquals(1 + (11 + 5) * 3 + 2, search.maxRuns());
    }
}
