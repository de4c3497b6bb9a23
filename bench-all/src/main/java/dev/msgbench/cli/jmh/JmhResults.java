package dev.msgbench.cli.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.UserError;

/** Reads JMH's JSON result format ({@code -rf json}) into scores keyed by benchmark, mode and params. */
public final class JmhResults {

    /**
     * The -prof gc metric that is comparable between runs: bytes per operation, not per second.
     * JMH 1.37 writes it under this name; versions before 1.36 prefixed it with a middle dot.
     */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";
    static final String OLD_ALLOC_NORM = "\u00b7gc.alloc.rate.norm";
    /** The -prof gc allocation rate, MB/s: what the benchmark's loop asked of the collector. */
    static final String ALLOC_RATE = "gc.alloc.rate";
    static final String OLD_ALLOC_RATE = "\u00b7gc.alloc.rate";

    private JmhResults() {
    }

    /** Scores in file order; a benchmark that appears twice keeps its last result. */
    public static Map<String, JmhScore> read(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new UserError(file + " is not JMH JSON (" + e.getOriginalMessage() + "); give a file written with -rf json");
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isArray()) {
            throw new UserError(file + " is not JMH JSON: expected an array of results; give a file written with -rf json");
        }
        Map<String, JmhScore> scores = new LinkedHashMap<>();
        for (JsonNode result : root) {
            JmhScore score = score(result);
            scores.put(score.key(), score);
        }
        return scores;
    }

    private static JmhScore score(JsonNode result) {
        String benchmark = result.path("benchmark").asText();
        String mode = result.path("mode").asText();
        Map<String, String> sorted = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = result.path("params").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            sorted.put(p.getKey(), p.getValue().asText());
        }
        StringBuilder params = new StringBuilder();
        sorted.forEach((k, v) -> params.append(params.length() == 0 ? "" : ",").append(k).append('=').append(v));
        JsonNode primary = result.path("primaryMetric");
        JsonNode secondary = result.path("secondaryMetrics");
        return new JmhScore(benchmark + " " + mode + " " + params, shortName(benchmark), mode, params.toString(),
                number(primary.path("score")), number(primary.path("scoreError")), primary.path("scoreUnit").asText(),
                secondary(secondary, ALLOC_NORM, OLD_ALLOC_NORM), secondary(secondary, ALLOC_RATE, OLD_ALLOC_RATE),
                "thrpt".equals(mode));
    }

    /** A -prof gc metric's score under its name or its name before JMH 1.36; NaN when the profiler did not run. */
    private static double secondary(JsonNode metrics, String name, String oldName) {
        JsonNode metric = metrics.has(name) ? metrics.path(name) : metrics.path(oldName);
        return metric.isMissingNode() ? Double.NaN : number(metric.path("score"));
    }

    /** JMH writes "NaN" as a string when it could not compute a value. */
    private static double number(JsonNode node) {
        if (node.isNumber()) {
            return node.asDouble();
        }
        return node.isTextual() ? Double.parseDouble(node.asText()) : Double.NaN;
    }

    /** Class.method: the package is the same for every benchmark of a module. */
    static String shortName(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        int type = method <= 0 ? -1 : benchmark.lastIndexOf('.', method - 1);
        return benchmark.substring(type + 1);
    }
}
