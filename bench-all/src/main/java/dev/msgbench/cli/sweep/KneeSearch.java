package dev.msgbench.cli.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a sweep goes next, apart from running anything: a warm-up run, a ramp from the start rate
 * until a step misses (or --max-rate passes), a bisection between the last passing rate and the
 * first failing one down to the resolution, and the knee's repeats. The knee is the highest rate
 * that passed its repeats: {@code mustPass} of {@code repeats} runs.
 *
 * <p>A step's first run that passes is enough while searching (repeats are for misses, which are
 * what a cold or noisy run produces); the knee itself is then run until it has all its repeats,
 * for their spread, and must pass {@code mustPass} of them. A knee that does not becomes a failing
 * rate and the search goes on below it. A run that fails (not a miss: the run itself broke) ends
 * the search, as an interrupted one does.
 *
 * <p>Every run counts against a budget, {@link #maxRuns}, so the time a sweep may take is known
 * before it starts.
 */
public final class KneeSearch {

    /** What one run came to. */
    enum Verdict { PASS, MISS, FAILED, INTERRUPTED }

    /** Why a run is made. */
    enum Phase {
        WARM_UP("warm-up"), RAMP("ramp"), BISECT("bisect"), REPEAT("repeat");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /** Runs one step of the sweep at a rate and judges it. */
    @FunctionalInterface
    interface Trial {
        Verdict run(double rateMsgsPerSec, Phase phase);
    }

    /** How the search ended. */
    enum End {
        /** the last passing rate and the first failing one are within the resolution */
        BRACKETED,
        /** --max-rate passed: the system may sustain more */
        MAX_RATE,
        /** the start rate did not pass */
        NONE_PASSED,
        /** a run failed */
        FAILED,
        INTERRUPTED,
        /** {@link #maxRuns} runs were made (a knee that failed its repeats more than once) */
        BUDGET
    }

    /**
     * @param kneeMsgsPerSec  the highest rate that passed, or null
     * @param confirmed       whether the knee passed {@code mustPass} of {@code repeats} runs
     * @param firstMissMsgsPerSec the lowest rate above the knee that did not pass, or null
     */
    record Result(Double kneeMsgsPerSec, boolean confirmed, Double firstMissMsgsPerSec, End end, int runs) {
    }

    private final double startRate;
    private final RateStep step;
    private final double maxRate;
    private final int repeats;
    private final int mustPass;
    private final RateResolution resolution;
    private final int warmUpRuns;

    /** Runs and passes per rate, so far. */
    private final Map<Double, int[]> tallies = new TreeMap<>();
    private final int budget;
    private int runs;
    private Verdict stopped;

    KneeSearch(double startRate, RateStep step, double maxRate, int repeats, int mustPass, RateResolution resolution,
               int warmUpRuns) {
        if (!(startRate > 0) || !(maxRate >= startRate) || mustPass < 1 || repeats < mustPass || warmUpRuns < 0) {
            throw new IllegalArgumentException("start " + startRate + ", max " + maxRate + ", " + mustPass + " of "
                    + repeats + ", warm-up runs " + warmUpRuns);
        }
        this.startRate = startRate;
        this.step = step;
        this.maxRate = maxRate;
        this.repeats = repeats;
        this.mustPass = mustPass;
        this.resolution = resolution;
        this.warmUpRuns = warmUpRuns;
        this.budget = warmUpRuns + (rampRates().size() + maxBisectSteps()) * repeats + (repeats - 1);
    }

    /** The rates of the ramp, the start rate first, --max-rate last unless a step lands on it. */
    List<Double> rampRates() {
        List<Double> rates = new ArrayList<>();
        for (double rate = startRate; ; rate = Math.min(step.next(rate), maxRate)) {
            rates.add(rate);
            if (rate >= maxRate) {
                return rates;
            }
        }
    }

    /** The most bisection steps between two neighbours of the ramp. */
    int maxBisectSteps() {
        List<Double> rates = rampRates();
        int most = 0;
        for (int i = 1; i < rates.size(); i++) {
            double lo = rates.get(i - 1);
            double gap = rates.get(i) - lo;
            int steps = 0;
            // as midpoint() does on a gap that halves each step: the passing side only rises, so its width only grows
            while (gap > resolution.widthAt(lo) && gap >= 2) {
                gap = Math.ceil(gap / 2);
                steps++;
            }
            // one more: rates that are not whole msg/s round down once
            most = Math.max(most, steps + (rates.get(i) == Math.rint(rates.get(i)) && lo == Math.rint(lo) ? 0 : 1));
        }
        return most;
    }

    /** The runs the search may make, at most: it never makes more. */
    int maxRuns() {
        return budget;
    }

    Result search(Trial trial) {
        for (int i = 0; i < warmUpRuns; i++) {
            // not judged: a cold first step says more about the cold than about the rate
            if (!run(trial, startRate, Phase.WARM_UP, false)) {
                return end(null, false, null, endOfStop());
            }
        }
        Double lo = null;
        Double hi = null;
        for (double rate : rampRates()) {
            Verdict v = step(trial, rate, Phase.RAMP);
            if (v == Verdict.PASS) {
                lo = rate;
            } else if (v == Verdict.MISS) {
                hi = rate;
                break;
            } else {
                return end(lo, false, hi, endOfStop());
            }
        }
        while (true) {
            Double mid = midpoint(lo, hi);
            if (mid != null) {
                Verdict v = step(trial, mid, Phase.BISECT);
                if (v == Verdict.PASS) {
                    lo = mid;
                } else if (v == Verdict.MISS) {
                    hi = mid;
                } else {
                    return end(lo, false, hi, endOfStop());
                }
                continue;
            }
            if (lo == null) {
                return end(null, false, hi, End.NONE_PASSED);
            }
            Verdict v = confirm(trial, lo);
            if (v == Verdict.PASS) {
                return end(lo, true, hi, hi == null ? End.MAX_RATE : End.BRACKETED);
            }
            if (v != Verdict.MISS) {
                return end(lo, false, hi, endOfStop());
            }
            // the knee did not hold up: the search goes on below it, from the highest rate that passed there
            hi = lo;
            lo = highestPassBelow(hi);
        }
    }

    /** A step: one run, more when it misses, until {@code mustPass} passed or can no longer pass. */
    private Verdict step(Trial trial, double rate, Phase phase) {
        if (!run(trial, rate, phase, true)) {
            return stopped;
        }
        return tally(rate)[1] == 1 ? Verdict.PASS : runUntilDecided(trial, rate);
    }

    /** The knee's runs up to all its repeats; passes when {@code mustPass} of them did. */
    private Verdict confirm(Trial trial, double rate) {
        while (tally(rate)[0] < repeats && !impossible(rate)) {
            if (!run(trial, rate, Phase.REPEAT, true)) {
                return stopped;
            }
        }
        return tally(rate)[1] >= mustPass ? Verdict.PASS : Verdict.MISS;
    }

    private Verdict runUntilDecided(Trial trial, double rate) {
        while (tally(rate)[1] < mustPass && !impossible(rate)) {
            if (!run(trial, rate, Phase.REPEAT, true)) {
                return stopped;
            }
        }
        return tally(rate)[1] >= mustPass ? Verdict.PASS : Verdict.MISS;
    }

    private boolean impossible(double rate) {
        int[] t = tally(rate);
        return t[0] - t[1] > repeats - mustPass;
    }

    /** Runs and counts; false when the search must stop (a failed or interrupted run, or the budget spent). */
    private boolean run(Trial trial, double rate, Phase phase, boolean judged) {
        if (runs >= budget) {
            stopped = null;
            return false;
        }
        runs++;
        Verdict verdict = trial.run(rate, phase);
        if (verdict == Verdict.FAILED || verdict == Verdict.INTERRUPTED) {
            stopped = verdict;
            return false;
        }
        if (judged) {
            int[] t = tally(rate);
            t[0]++;
            if (verdict == Verdict.PASS) {
                t[1]++;
            }
        }
        return true;
    }

    private End endOfStop() {
        return stopped == Verdict.INTERRUPTED ? End.INTERRUPTED : stopped == Verdict.FAILED ? End.FAILED : End.BUDGET;
    }

    private int[] tally(double rate) {
        return tallies.computeIfAbsent(rate, r -> new int[2]);
    }

    private Double highestPassBelow(double rate) {
        Double best = null;
        for (Map.Entry<Double, int[]> e : tallies.entrySet()) {
            if (e.getKey() < rate && e.getValue()[1] > 0) {
                best = e.getKey();
            }
        }
        return best;
    }

    /** Half way, in whole msg/s (strictly between, as the gap is at least 2); null when the bisection is done. */
    private Double midpoint(Double lo, Double hi) {
        if (lo == null || hi == null || hi - lo <= resolution.widthAt(lo) || hi - lo < 2) {
            return null;
        }
        return Math.floor((lo + hi) / 2);
    }

    private Result end(Double knee, boolean confirmed, Double hi, End end) {
        return new Result(knee, confirmed, hi, end, runs);
    }
}
