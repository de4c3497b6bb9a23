package dev.msgbench.cli.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One line of the tuning table, read from a child run's result.json. Latencies in ms; NaN where
 * the run did not measure a value (a failed child has only its status).
 */
public record TuneRow(String jdk, String flagSet, List<String> flags, String status, double p50Ms, double p99Ms,
                      double p999Ms, double maxMs, double achievedRate, double targetRate, long gcPauses,
                      double gcPauseTotalMs, double gcPauseMaxMs, double allocMiBPerSec, double hiccupP99Ms,
                      double hiccupMaxMs, String resultDir) {

    /** A row for a child that left no result.json: why, and nothing measured. */
    public static TuneRow failed(String jdk, String flagSet, List<String> flags, String why, String resultDir) {
        return new TuneRow(jdk, flagSet, flags, why, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, -1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, resultDir);
    }

    public static TuneRow read(String jdk, String flagSet, List<String> flags, Path resultJson) throws IOException {
        JsonNode r = new ObjectMapper().readTree(Files.readString(resultJson));
        JsonNode latency = r.path("latencyMs");
        JsonNode generator = r.path("loadGenerator");
        JsonNode pauses = generator.path("gcPauses");
        JsonNode hiccup = generator.path("hiccupMs");
        return new TuneRow(jdk, flagSet, flags, r.path("status").asText("?"), number(latency, "p50"), number(latency, "p99"),
                number(latency, "p99.9"), number(latency, "max"), number(r, "achievedRate"), number(r, "targetRate"),
                pauses.isMissingNode() ? generator.path("gcCount").asLong(-1) : pauses.path("count").asLong(-1),
                pauses.isMissingNode() ? number(generator, "gcMillis") : number(pauses, "totalMs"),
                number(pauses, "maxMs"), number(generator, "allocMiBPerSec"), number(hiccup, "p99"), number(hiccup, "max"),
                resultJson.getParent().toString());
    }

    private static double number(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }
}
