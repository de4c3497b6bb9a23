package dev.msgbench.cli.tune;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * One line of the tuning table, from a child run's result. Latencies in ms; NaN where the run
 * did not measure a value (a failed child has only its status).
 *
 * @param cpu how busy the machine's CPUs were and whether the load generator and the broker
 *            contended for them ({@link CpuContention#brief}); "-" where not known
 */
public record TuneRow(String jdk, String flagSet, List<String> flags, String status, double p50Ms, double p99Ms,
                      double p999Ms, double maxMs, double achievedRate, double targetRate, long gcPauses,
                      double gcPauseTotalMs, double gcPauseMaxMs, double allocMiBPerSec, double hiccupP99Ms,
                      double hiccupMaxMs, String cpu, String resultDir) {

    /** A row for a child that left no result: why, and nothing measured. */
    public static TuneRow failed(String jdk, String flagSet, List<String> flags, String why, String resultDir) {
        return new TuneRow(jdk, flagSet, flags, why, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, -1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "-", resultDir);
    }

    /** The row of a child's result, which it wrote into {@code resultDir}. */
    public static TuneRow of(String jdk, String flagSet, List<String> flags, RunResult result, Path resultDir) {
        // as the JSON tree, where a value the run did not measure is simply missing
        JsonNode r = ResultFiles.json().valueToTree(result);
        JsonNode latency = r.path("latenciesMs").path("latency");
        JsonNode rates = r.path("rates");
        JsonNode generator = r.path("loadGenerator");
        JsonNode pauses = generator.path("gcPauses");
        JsonNode hiccup = generator.path("hiccupMs");
        return new TuneRow(jdk, flagSet, flags, r.path("status").asText("?"), number(latency, "p50"), number(latency, "p99"),
                number(latency, "p99.9"), number(latency, "max"), number(rates, "achievedMsgsPerSec"),
                number(rates, "targetMsgsPerSec"),
                pauses.isMissingNode() ? generator.path("gcCount").asLong(-1) : pauses.path("count").asLong(-1),
                pauses.isMissingNode() ? number(generator, "gcMillis") : number(pauses, "totalMs"),
                number(pauses, "maxMs"), number(generator, "allocMiBPerSec"), number(hiccup, "p99"), number(hiccup, "max"),
                CpuContention.brief(result.cpu()), resultDir.toString());
    }

    private static double number(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }
}
