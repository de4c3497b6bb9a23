package dev.msgbench.core.result;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.msgbench.core.analysis.Steadiness;
import dev.msgbench.core.fault.FaultReport;

/**
 * What one run measured, as written to result.json. The schema is documented in
 * docs/result-json.md; bump {@link #SCHEMA_VERSION} on any incompatible change, and keep reading
 * the old one ({@link ResultSchemaV1}).
 *
 * <p>Counts cover the whole run, warm-up included (a message lost during warm-up is still
 * lost); rates and latencies cover the measured part only.
 *
 * @param error      why the run failed, on one line; null unless it failed
 * @param throughput rates at each end of a throughput run; null on a fixed schedule
 * @param steadiness whether the measured window saw a steady state; null when not judged (a
 *                   throughput run, a run with faults, a result written before it was judged)
 * @param cpu        what the machine, the load generator and the local broker used of the CPUs
 *                   over the measured window, and whether the two competed for cores; null where
 *                   not watched (a merged run, a result written before it was)
 * @param brokerBytes what the broker itself counted of the run's destinations in bytes, beside the
 *                   bytes the run sent ({@code counter}, {@code bytes}, {@code sentBytes},
 *                   {@code ratio}); null where the system reports no such counter, in merged runs
 *                   and in results written before it was recorded
 */
@JsonPropertyOrder(alphabetic = false)
public record RunResult(
        int schemaVersion,
        String tool,
        String toolVersion,
        String command,
        RunStatus status,
        String error,
        String startedAt,
        String finishedAt,
        String system,
        Workload workload,
        Map<String, Object> durability,
        Map<String, Object> settings,
        Map<String, String> versions,
        Map<String, Object> broker,
        Map<String, Object> environment,
        Counts counts,
        Rates rates,
        Latencies latenciesMs,
        Throughput throughput,
        Map<String, Object> loadGenerator,
        List<String> warnings,
        Map<String, String> files,
        List<FaultReport> faults,
        Steadiness steadiness,
        BacklogFigures backlog,
        Map<String, Object> cpu,
        Map<String, Object> run,
        Map<String, Object> brokerBytes) {

    public static final int SCHEMA_VERSION = 2;

    /** Without the broker's byte counter, as systems without one, merged runs and older results. */
    public RunResult(int schemaVersion, String tool, String toolVersion, String command, RunStatus status, String error,
                     String startedAt, String finishedAt, String system, Workload workload, Map<String, Object> durability,
                     Map<String, Object> settings, Map<String, String> versions, Map<String, Object> broker,
                     Map<String, Object> environment, Counts counts, Rates rates, Latencies latenciesMs,
                     Throughput throughput, Map<String, Object> loadGenerator, List<String> warnings,
                     Map<String, String> files, List<FaultReport> faults, Steadiness steadiness, BacklogFigures backlog,
                     Map<String, Object> cpu, Map<String, Object> run) {
        this(schemaVersion, tool, toolVersion, command, status, error, startedAt, finishedAt, system, workload, durability,
                settings, versions, broker, environment, counts, rates, latenciesMs, throughput, loadGenerator, warnings,
                files, faults, steadiness, backlog, cpu, run, null);
    }

    /** Without the run's description, as results written before it was recorded and merged ones. */
    public RunResult(int schemaVersion, String tool, String toolVersion, String command, RunStatus status, String error,
                     String startedAt, String finishedAt, String system, Workload workload, Map<String, Object> durability,
                     Map<String, Object> settings, Map<String, String> versions, Map<String, Object> broker,
                     Map<String, Object> environment, Counts counts, Rates rates, Latencies latenciesMs,
                     Throughput throughput, Map<String, Object> loadGenerator, List<String> warnings,
                     Map<String, String> files, List<FaultReport> faults, Steadiness steadiness, BacklogFigures backlog,
                     Map<String, Object> cpu) {
        this(schemaVersion, tool, toolVersion, command, status, error, startedAt, finishedAt, system, workload, durability,
                settings, versions, broker, environment, counts, rates, latenciesMs, throughput, loadGenerator, warnings,
                files, faults, steadiness, backlog, cpu, null);
    }

    /** Without CPU figures, as results written before they existed and merged ones. */
    public RunResult(int schemaVersion, String tool, String toolVersion, String command, RunStatus status, String error,
                     String startedAt, String finishedAt, String system, Workload workload, Map<String, Object> durability,
                     Map<String, Object> settings, Map<String, String> versions, Map<String, Object> broker,
                     Map<String, Object> environment, Counts counts, Rates rates, Latencies latenciesMs,
                     Throughput throughput, Map<String, Object> loadGenerator, List<String> warnings,
                     Map<String, String> files, List<FaultReport> faults, Steadiness steadiness, BacklogFigures backlog) {
        this(schemaVersion, tool, toolVersion, command, status, error, startedAt, finishedAt, system, workload, durability,
                settings, versions, broker, environment, counts, rates, latenciesMs, throughput, loadGenerator, warnings,
                files, faults, steadiness, backlog, null, null);
    }

    /** Without a backlog (--backlog), as results written before it existed. */
    public RunResult(int schemaVersion, String tool, String toolVersion, String command, RunStatus status, String error,
                     String startedAt, String finishedAt, String system, Workload workload, Map<String, Object> durability,
                     Map<String, Object> settings, Map<String, String> versions, Map<String, Object> broker,
                     Map<String, Object> environment, Counts counts, Rates rates, Latencies latenciesMs,
                     Throughput throughput, Map<String, Object> loadGenerator, List<String> warnings,
                     Map<String, String> files, List<FaultReport> faults, Steadiness steadiness) {
        this(schemaVersion, tool, toolVersion, command, status, error, startedAt, finishedAt, system, workload, durability,
                settings, versions, broker, environment, counts, rates, latenciesMs, throughput, loadGenerator, warnings,
                files, faults, steadiness, null, null, null);
    }

    public RunResult {
        // results written before faults existed have none
        faults = faults == null ? List.of() : List.copyOf(faults);
    }
}
