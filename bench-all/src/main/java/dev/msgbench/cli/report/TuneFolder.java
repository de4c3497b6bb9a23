package dev.msgbench.cli.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.tune.TuneFigure;

/**
 * A folder written by {@code tune}: tune.json, whose sets hold each figure of each run. The
 * report draws a tune as one chart per figure with every set's runs, not as a run per child.
 *
 * @param sets in the order tune ran them, one per (JDK, flag set)
 * @param rule the verdict rule tune.json names, or null without a baseline
 * @param jmh  the JMH scores of tune --jmh, or null without them
 */
record TuneFolder(Path dir, String workload, List<RepeatedSet> sets, String rule, TuneJmhSection jmh) {

    static final String JSON = "tune.json";
    static final String LEFT_OUT = "its flag sets' charts";
    private static final List<TuneFigure> FIGURES = List.of(TuneFigure.values());

    /** The folders at or below {@code dirs} holding a tune.json: the report reads none of them as runs. */
    static List<Path> foldersBelow(List<Path> dirs) {
        return MarkedFolders.below(dirs, JSON);
    }

    static List<TuneFolder> read(List<Path> folders, List<String> leftOut) {
        return MarkedFolders.read(folders, leftOut, TuneFolder::read);
    }

    /** Null when tune.json cannot be read or holds no sets (written before tune kept them), said in {@code leftOut}. */
    static TuneFolder read(Path dir, List<String> leftOut) {
        Path file = dir.resolve(JSON);
        JsonNode json = MarkedFolders.json(file, LEFT_OUT, leftOut);
        if (json == null) {
            return null;
        }
        if (!json.path("sets").isArray()) {
            leftOut.add(file + ": holds no sets (written by an older tune, or cut short); left out of the report: "
                    + LEFT_OUT);
            return null;
        }
        List<RepeatedSet> sets = new ArrayList<>();
        String rule = null;
        for (JsonNode set : json.path("sets")) {
            if (set.path("rule").isTextual()) {
                rule = set.path("rule").asText();
            }
            sets.add(RepeatedSet.read(set.path("jdk").asText() + " " + set.path("flagSet").asText(), set, FIGURES));
        }
        List<String> workload = new ArrayList<>();
        json.path("e2eArgs").forEach(a -> workload.add(a.asText()));
        return new TuneFolder(dir, String.join(" ", workload), List.copyOf(sets), rule,
                TuneJmhSection.read(json.path("jmh")));
    }

    /** The section's table: per figure each set's median run [lowest..highest], and the verdicts against the baseline. */
    String html() {
        if (sets.isEmpty()) {
            // tune --jmh-only: no e2e cell ran
            return jmh == null ? "" : jmh.html();
        }
        StringBuilder b = new StringBuilder();
        b.append("<p>e2e ").append(HtmlPage.esc(workload)).append("</p>\n");
        b.append(RepeatedSet.html("figure", sets, FIGURES, rule, sets.stream().map(RepeatedSet::baseline)
                .filter(x -> x != null).distinct().reduce((x, y) -> x + ", " + y).orElse("-")));
        return jmh == null ? b.toString() : b.append(jmh.html()).toString();
    }
}
