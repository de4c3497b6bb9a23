package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.nodes.Node;

/**
 * The stepped rate of OMB files with producerStartRate, producerIncrementRate and producerIncrementSeconds: the
 * producers start at the start rate and add the increment every period until they reach producerRate, which they
 * keep for the rest of testDurationMinutes. That is a rate schedule here, written out step by step.
 */
public final class OmbRateIncrements {

    static final List<String> KEYS = List.of("producerStartRate", "producerIncrementRate", "producerIncrementSeconds");

    private OmbRateIncrements() {
    }

    static boolean present(Map<String, Node> top) {
        return KEYS.stream().anyMatch(top::containsKey);
    }

    /** The --rate-schedule of the file, or null when the file states no increments. */
    static String schedule(YamlDocument doc, Map<String, Node> top, long rate, long durationSeconds) {
        if (!present(top)) {
            return null;
        }
        for (String key : KEYS) {
            if (!top.containsKey(key)) {
                throw new Origin(doc.file()).error("'" + key + "' is missing: a stepped rate needs producerStartRate, "
                        + "producerIncrementRate and producerIncrementSeconds together");
            }
        }
        if (rate == 0) {
            throw doc.origin(top.get("producerRate")).error("'producerRate' must be above 0 with producerStartRate "
                    + "(the rate the steps climb to), got 0");
        }
        long start = atLeastOne(doc, top, "producerStartRate");
        long increment = atLeastOne(doc, top, "producerIncrementRate");
        long periodSeconds = atLeastOne(doc, top, "producerIncrementSeconds");
        List<String> steps = new ArrayList<>();
        long elapsedSeconds = 0;
        long current = Math.min(start, rate);
        while (current < rate && elapsedSeconds + periodSeconds < durationSeconds) {
            steps.add(current + "/s for " + periodSeconds + "s");
            elapsedSeconds += periodSeconds;
            current = Math.min(rate, current + increment);
        }
        steps.add(current + "/s for " + (durationSeconds - elapsedSeconds) + "s");
        return String.join(", ", steps);
    }

    private static long atLeastOne(YamlDocument doc, Map<String, Node> top, String key) {
        long value = doc.wholeNumber(key, top.get(key));
        if (value < 1) {
            throw doc.origin(top.get(key)).error("'" + key + "' must be at least 1, got " + value);
        }
        return value;
    }
}
