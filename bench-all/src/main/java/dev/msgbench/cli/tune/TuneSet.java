package dev.msgbench.cli.tune;

import java.util.List;
import java.util.Map;

import dev.msgbench.cli.repeats.RepeatedRuns;

/**
 * One (JDK, flag set) with all its runs: each run's own figures, and the latency of all its runs
 * together, their measured histograms added (never their percentiles averaged).
 *
 * @param id          the cell's id, "jdk17-G1"
 * @param runs        every run in the order made, failed ones included (their figures are NaN)
 * @param addedLatencyMs percentiles of the added histograms of the complete runs, as result.json keys them;
 *                    empty when none left an interval log
 */
public record TuneSet(String id, String jdk, String flagSet, List<String> flags, List<TuneRow> runs,
                      Map<String, Double> addedLatencyMs) {

    static final String COMPLETE = "complete";

    public TuneSet {
        runs = List.copyOf(runs);
        addedLatencyMs = Map.copyOf(addedLatencyMs);
    }

    /** "jdk17 G1", as the tables name it. */
    public String name() {
        return jdk + " " + flagSet;
    }

    /**
     * The complete runs; a run that failed or was interrupted is no sample of the flag set, so it
     * is left out of the spread and the verdicts (and counted in {@link #complete}).
     */
    public RepeatedRuns<TuneRow> repeated() {
        return new RepeatedRuns<>(name(), runs.stream().filter(r -> COMPLETE.equals(r.status())).toList(), runs.size());
    }

    public long complete() {
        return repeated().complete().size();
    }
}
