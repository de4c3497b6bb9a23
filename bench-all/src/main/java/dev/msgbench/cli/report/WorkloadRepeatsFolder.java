package dev.msgbench.cli.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.workload.CellFigure;
import dev.msgbench.cli.workload.SummaryReport;

/**
 * A folder written by {@code run} with repeats (or a baseline): its summary.json holds each
 * cell's runs per figure, drawn as a tune's sets are, one chart per figure with every cell's runs
 * and its median run. The runs themselves are still drawn one by one as well.
 *
 * @param cells in the workload's order
 * @param rule  the verdict rule summary.json names, or null without a baseline
 */
record WorkloadRepeatsFolder(Path dir, String workload, List<RepeatedSet> cells, String rule, String baseline) {

    static final String LEFT_OUT = "its cells' repeats";
    static final RepeatsCharts.What WHAT = new RepeatsCharts.What("cell", "cells");
    static final List<CellFigure> FIGURES = List.of(CellFigure.values());

    static List<WorkloadRepeatsFolder> below(List<Path> dirs, List<String> leftOut) {
        return MarkedFolders.read(MarkedFolders.below(dirs, SummaryReport.JSON), leftOut, WorkloadRepeatsFolder::read);
    }

    /** Null for a workload run without repeats, whose runs are all there is to draw, or whose summary cannot be read. */
    static WorkloadRepeatsFolder read(Path dir, List<String> leftOut) {
        JsonNode json = MarkedFolders.json(dir.resolve(SummaryReport.JSON), LEFT_OUT, leftOut);
        if (json == null || !json.path("repeats").isInt()) {
            return null;
        }
        List<RepeatedSet> cells = new ArrayList<>();
        for (JsonNode cell : json.path("cells")) {
            cells.add(RepeatedSet.read(cell.path("index").asInt() + " " + cell.path("label").asText(), cell, FIGURES));
        }
        return new WorkloadRepeatsFolder(dir, json.path("workload").asText(), List.copyOf(cells),
                json.path("rule").asText(null), json.path("baseline").asText(null));
    }

    String html() {
        return RepeatedSet.html("figure", cells, FIGURES, rule, baseline);
    }
}
