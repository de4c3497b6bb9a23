package dev.msgbench.core.result;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.msgbench.core.fault.FaultReport;

/**
 * What one run measured, as written to result.json. The schema is documented in
 * docs/result-json.md; bump {@link #SCHEMA_VERSION} on any incompatible change.
 *
 * <p>Counts cover the whole run, warm-up included (a message lost during warm-up is still
 * lost); rates and latencies cover the measured part only.
 */
@JsonPropertyOrder(alphabetic = false)
public record RunResult(
        int schemaVersion,
        String tool,
        String toolVersion,
        String command,
        String status,
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
        long sent,
        long acknowledged,
        long sendErrors,
        long received,
        long lost,
        long duplicated,
        long reordered,
        long late,
        long unsent,
        long foreign,
        long measuredSent,
        double targetRate,
        double achievedRate,
        double receivedRate,
        boolean targetRateMissed,
        double maxBehindScheduleMs,
        Map<String, Double> latencyMs,
        Map<String, Double> serviceMs,
        Map<String, Double> sendDelayMs,
        Map<String, Double> ackMs,
        Throughput throughput,
        Map<String, Object> loadGenerator,
        List<String> warnings,
        Map<String, String> files,
        List<FaultReport> faults) {

    public static final int SCHEMA_VERSION = 1;

    public RunResult {
        // results written before faults existed have none
        faults = faults == null ? List.of() : List.copyOf(faults);
    }

    /** "complete", or why the run ended early. */
    public static final String COMPLETE = "complete";
    public static final String FAILED = "failed";
    public static final String INTERRUPTED = "interrupted";
}
