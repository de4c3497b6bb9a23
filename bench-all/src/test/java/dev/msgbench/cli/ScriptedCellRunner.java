package dev.msgbench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.Latencies;
import dev.msgbench.core.result.Rates;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.Workload;
import dev.msgbench.core.run.Pacing;

/**
 * A runner that runs nothing and writes nothing: it answers each cell with the outcome the test
 * scripts, and keeps the cells it was given. What a command then shows can only have come from
 * the outcome in memory.
 */
public final class ScriptedCellRunner implements CellRunner {

    /** One call: the cell and the folder it was to run into. */
    public record Call(ParsedCell cell, Path outputDir) {
    }

    private final Function<ParsedCell, CellOutcome> script;
    private final List<Call> calls = new ArrayList<>();

    public ScriptedCellRunner(Function<ParsedCell, CellOutcome> script) {
        this.script = script;
    }

    /** A runner for a command that must stop before anything starts: running a cell fails the test. */
    public static ScriptedCellRunner failingIfRun() {
        return new ScriptedCellRunner(cell -> {
            throw new AssertionError("a cell was run (a broker would have started): " + cell.args());
        });
    }

    @Override
    public CellOutcome run(ParsedCell cell, Path outputDir) {
        calls.add(new Call(cell, outputDir));
        return script.apply(cell);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The cell's target rate: an e2e cell's, or 0 for throughput. */
    static double rate(ParsedCell cell) {
        return cell.pacing() instanceof Pacing.FixedRate fixed ? fixed.rateMsgsPerSec() : 0;
    }

    /** A complete e2e run: every message of {@code sent} received, latency p50 to max at {@code latencyMs}. */
    static RunResult complete(double targetRate, double achievedRate, long sent, double latencyMs) {
        return result(RunStatus.COMPLETE, null, targetRate, achievedRate, sent, latencyMs);
    }

    static RunResult result(RunStatus status, String error, double targetRate, double achievedRate, long sent,
                            double latencyMs) {
        return withCounts(status, error, targetRate, achievedRate, latencyMs,
                new Counts(sent, 0, 0, sent, 0, 0, 0, 0, 0, 0, 0, sent));
    }

    static RunResult withCounts(RunStatus status, String error, double targetRate, double achievedRate, double latencyMs,
                                Counts counts) {
        Workload workload = new Workload(Workload.FIXED_RATE, targetRate, 0, 0, 1024, 0, 1, "uniform", 1, 1, 1, 10);
        Map<String, Double> latency = Map.of("p50", latencyMs, "p99", latencyMs, "p99.9", latencyMs, "max", latencyMs);
        return new RunResult(RunResult.SCHEMA_VERSION, "msgbench", "test", "e2e", status, error,
                "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", "loopback", workload, Map.of(), Map.of(), Map.of(),
                Map.of(), Map.of(), counts,
                new Rates(targetRate, achievedRate, achievedRate, achievedRate < targetRate * 0.99, 0),
                new Latencies(latency, Map.of(), Map.of(), Map.of()), null, Map.of(), List.of(), Map.of(), List.of(), null);
    }

    /**
     * {@code r} with result.json's {@code cpu} as a run that watched the CPUs writes it: the
     * machine's busy share over the measured window and whether the load generator and the
     * broker contended for cores.
     */
    static RunResult withCpu(RunResult r, double busyShare, boolean contention) {
        Map<String, Object> cpu = Map.of("machine", Map.of("busyShare", busyShare), "contention", contention,
                "busyMachine", false);
        return new RunResult(r.schemaVersion(), r.tool(), r.toolVersion(), r.command(), r.status(), r.error(),
                r.startedAt(), r.finishedAt(), r.system(), r.workload(), r.durability(), r.settings(), r.versions(),
                r.broker(), r.environment(), r.counts(), r.rates(), r.latenciesMs(), r.throughput(), r.loadGenerator(),
                r.warnings(), r.files(), r.faults(), r.steadiness(), r.backlog(), cpu);
    }
}
