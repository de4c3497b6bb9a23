package dev.msgbench.cli.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.sweep.SweepCommand;
import dev.msgbench.core.result.DamagedFile;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * A folder written by {@code sweep}: sweep.json (the objective, every step, each system's knee)
 * and a results folder per step, whose result.json gives the latency at that step's rate. The
 * report draws a sweep as latency against offered load, not as a run per step.
 *
 * @param objectiveStatistic p99, max... of the objective; {@code limitMs} null for {@code --objective none}
 * @param steps              in the order they ran, each with its result where it left one
 * @param knees              per system, in the order swept; absent for a system the sweep never reached
 */
record SweepFolder(Path dir, String objectiveText, String objectiveStatistic, Double objectiveLimitMs, List<Step> steps,
                   Map<String, Knee> knees) {

    /** What a report that cannot read sweep.json leaves out. */
    static final String LEFT_OUT = "its latency against offered load";

    /**
     * One run of the sweep.
     *
     * @param result null where the step left no result.json (it failed before writing one)
     */
    record Step(int number, String system, String phase, double targetRate, boolean judged, boolean passed, Path folder,
                RunResult result) {
    }

    /**
     * @param rate null when no rate passed
     * @param end  why the search ended, as sweep.json says it: bracketed, max-rate, none-passed...
     */
    record Knee(Double rate, boolean confirmed, String end) {
    }

    /** The folders at or below {@code dirs} that hold a sweep.json, readable or not: the report reads none of them as runs. */
    static List<Path> foldersBelow(List<Path> dirs) {
        return MarkedFolders.below(dirs, SweepCommand.JSON);
    }

    /** The sweeps of {@code folders}; a sweep.json that cannot be read is a line of {@code leftOut}. */
    static List<SweepFolder> read(List<Path> folders, List<String> leftOut) {
        return MarkedFolders.read(folders, leftOut, SweepFolder::read);
    }

    /** Null when sweep.json cannot be read, said in {@code leftOut}. */
    static SweepFolder read(Path dir, List<String> leftOut) {
        Path file = dir.resolve(SweepCommand.JSON);
        JsonNode json = MarkedFolders.json(file, LEFT_OUT, leftOut);
        if (json == null) {
            return null;
        }
        if (!json.path("steps").isArray()) {
            leftOut.add(file + ": holds no steps (empty: cut short by a full disk or a power cut?); left out of the report: "
                    + LEFT_OUT);
            return null;
        }
        JsonNode objective = json.path("objective");
        List<Step> steps = new ArrayList<>();
        for (JsonNode step : json.path("steps")) {
            // the folder as the sweep named it may be relative to where it ran: the step's own name is what counts
            Path folder = dir.resolve(Path.of(step.path("folder").asText("-")).getFileName().toString());
            steps.add(new Step(step.path("number").asInt(), step.path("system").asText(), step.path("phase").asText(),
                    step.path("targetRate").asDouble(), step.path("judged").asBoolean(true), step.path("passed").asBoolean(),
                    folder, result(folder, leftOut)));
        }
        Map<String, Knee> knees = new LinkedHashMap<>();
        json.path("knee").fields().forEachRemaining(e -> {
            JsonNode knee = e.getValue();
            if (knee.isObject()) {
                knees.put(e.getKey(), new Knee(knee.path("rate").isNumber() ? knee.path("rate").asDouble() : null,
                        knee.path("confirmed").asBoolean(), knee.path("end").asText()));
            }
        });
        return new SweepFolder(dir, objective.path("text").asText(), objective.path("statistic").asText(),
                objective.path("limitMs").isNumber() ? objective.path("limitMs").asDouble() : null, List.copyOf(steps),
                knees);
    }

    /** The systems swept, in order. */
    List<String> systems() {
        List<String> systems = new ArrayList<>();
        for (Step step : steps) {
            if (!systems.contains(step.system())) {
                systems.add(step.system());
            }
        }
        return systems;
    }

    private static RunResult result(Path folder, List<String> leftOut) {
        if (!Files.isRegularFile(folder.resolve(ResultFiles.RESULT_JSON))) {
            return null; // the step failed before writing it, as sweep.json says
        }
        try {
            return ResultFiles.readResult(folder);
        } catch (DamagedFile e) {
            leftOut.add(e.getMessage() + "; left out of the report: that step of " + LEFT_OUT);
            return null;
        }
    }
}
