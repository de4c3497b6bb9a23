package dev.msgbench.cli.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.HdrHistogram.Histogram;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.TextColumns;
import dev.msgbench.cli.repeats.RepeatedRuns;
import dev.msgbench.cli.repeats.SpreadTable;
import dev.msgbench.core.ToolVersion;
import dev.msgbench.core.analysis.RunsVerdict;
import dev.msgbench.core.analysis.Steadiness;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.ScrubbingOutputStream;

/**
 * The summary of a workload run: one table like the published ones (a row per cell, and with
 * repetitions or repeats a row per run plus their sum), printed and written to summary.txt, with
 * every cell's flags, folder, status and values in summary.json. With repeats (or a baseline) a
 * second table gives each cell's median run and spread, and a third the verdicts against the
 * baseline cell ({@link SpreadTable}, as tune's).
 */
public final class SummaryReport {

    public static final String TEXT = "summary.txt";
    public static final String JSON = "summary.json";
    static final String OK = "ok";
    static final String NOT_RUN = "not run";
    static final String ACKNOWLEDGED_LOST = "ACKNOWLEDGED LOST";
    static final String NOT_STEADY = "NOT STEADY";

    /**
     * One run of a cell: its folder, how it ended and what it measured (null when nothing), or
     * not run at all (a Ctrl+C stopped the workload before it).
     */
    public record Repetition(int number, Path folder, boolean ran, ExitCode exitCode, RunResult result) {

        public static Repetition ran(int number, Path folder, ExitCode exitCode, RunResult result) {
            return new Repetition(number, folder, true, exitCode, result);
        }

        public static Repetition notRun(int number, Path folder) {
            return new Repetition(number, folder, false, null, null);
        }
    }

    /** A cell as it was run. */
    public record CellRun(Cell cell, List<String> args, Path folder, List<Repetition> repetitions) {
        public CellRun {
            args = List.copyOf(args);
            repetitions = List.copyOf(repetitions);
        }
    }

    private record Row(String number, String label, Map<String, Double> values, String status) {
    }

    /** A cell's complete runs, each with its own values, for its spread and verdicts. */
    private record Spread(Cell cell, RepeatedRuns<Map<String, Double>> runs, Map<String, Object> json) {
    }

    private static final List<CellFigure> FIGURES = List.of(CellFigure.values());

    private final List<String> heading = new ArrayList<>();
    private final List<String> columns;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<Spread> spreads = new ArrayList<>();
    private final List<String> spreadLines = new ArrayList<>();
    private final Map<String, Object> json = new LinkedHashMap<>();
    private boolean failed;
    private boolean acknowledgedLost;

    private SummaryReport(List<String> columns) {
        this.columns = columns;
    }

    /**
     * Every cell's results as its runner gave them; a missing or partial result is shown as such,
     * never skipped. Only a repeated cell's folders are read, for their interval logs: adding the
     * repetitions takes their latency histograms, and a result holds percentiles, which do not add.
     */
    public static SummaryReport of(WorkloadFile file, double scale, List<CellRun> runs, Path outputDir, String startedAt) {
        SummaryReport report = new SummaryReport(file.columns());
        report.heading.add(file.name() + (file.source() == null ? "" : " (" + file.source() + ")"));
        report.heading.add(file.file() + (scale == 1 ? "" : ", --scale " + Scaling.describe(scale) + " (durations and "
                + "message counts scaled; rates and sizes as published)") + ", " + runs.size() + " cell"
                + (runs.size() == 1 ? "" : "s"));
        report.json.put("tool", ToolVersion.NAME);
        report.json.put("toolVersion", ToolVersion.version());
        report.json.put("workload", file.name());
        report.json.put("source", file.source());
        report.json.put("file", file.file());
        report.json.put("scale", scale);
        report.json.put("startedAt", startedAt);
        report.json.put("finishedAt", Instant.now().toString());
        report.json.put("output", outputDir.toString());
        List<Map<String, String>> columnJson = new ArrayList<>();
        for (String id : file.columns()) {
            columnJson.add(Map.of("id", id, "title", Columns.title(id)));
        }
        report.json.put("columns", columnJson);
        report.json.put("warnings", file.warnings());
        List<Object> cells = new ArrayList<>();
        boolean repeated = false;
        for (CellRun run : runs) {
            cells.add(report.add(run));
            repeated |= run.repetitions().size() > 1;
        }
        report.json.put("cells", cells);
        if (file.repeats() > 1 || file.baseline() != null) {
            report.json.put("repeats", file.repeats());
            report.spread(file);
        }
        report.notes.add("latency: ms from the intended send time (free of coordinated omission); rates: msg/s, "
                + "and MiB/s of whole messages");
        if (repeated) {
            String runsAre = file.repeats() > 1 ? "runs" : "repetitions";
            report.notes.add("N.all: the " + runsAre + " together: latency from their added histograms (measured "
                    + "intervals of latency.hlog), counts added, each rate the lowest of the " + runsAre);
        }
        report.notes.add("status: RATE MISSED = achieved below 99% of the target; LOST = messages never received "
                + "that the system had not acknowledged; ACKNOWLEDGED LOST = messages it had acknowledged never received "
                + "(a broken promise); NOT STEADY = the first part of the measured window differs from its second half (a "
                + "system warming up or falling behind: see the cell's warnings); FAILED = see the cell's output and "
                + "result.json");
        report.notes.add("results: " + outputDir + " (one folder per cell; summary.json holds every cell's flags)");
        return report;
    }

    /** Whether any cell failed or did not run (a missed rate or lost messages are results, not failures). */
    public boolean anyFailed() {
        return failed;
    }

    /** Whether any cell lost messages its system had acknowledged. */
    public boolean anyAcknowledgedLost() {
        return acknowledgedLost;
    }

    public void print(PrintStream out) {
        out.println();
        heading.forEach(out::println);
        out.println();
        List<String> titles = new ArrayList<>(List.of("#", "cell"));
        columns.forEach(c -> titles.add(Columns.title(c)));
        titles.add("status");
        List<List<String>> table = new ArrayList<>();
        for (Row row : rows) {
            List<String> cells = new ArrayList<>(List.of(row.number(), row.label()));
            columns.forEach(c -> cells.add(Columns.format(c, row.values().get(c))));
            cells.add(row.status());
            table.add(cells);
        }
        int[] widths = new int[titles.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = titles.get(i).length();
            for (List<String> cells : table) {
                widths[i] = Math.max(widths[i], cells.get(i).length());
            }
        }
        out.println(line(titles, widths));
        table.forEach(cells -> out.println(line(cells, widths)));
        out.println();
        spreadLines.forEach(out::println);
        notes.forEach(note -> out.println("  " + note));
    }

    public void write(Path dir) {
        try {
            Files.createDirectories(dir);
            try (PrintStream out = new PrintStream(new ScrubbingOutputStream(Files.newOutputStream(dir.resolve(TEXT))), false,
                StandardCharsets.UTF_8)) {
                print(out);
            }
            // a cell's --url may carry a password: never into a file that is shared
            ResultFiles.json().writeValue(dir.resolve(JSON).toFile(), Redaction.redact(json));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the summary into " + dir, e);
        }
    }

    /** The cell's rows, and its entry in summary.json. */
    private Map<String, Object> add(CellRun run) {
        Cell cell = run.cell();
        List<Map<String, Double>> completed = new ArrayList<>();
        Set<String> statuses = new LinkedHashSet<>();
        List<Object> repetitionsJson = new ArrayList<>();
        Histogram latency = MeasuredLatency.empty();
        boolean repeated = run.repetitions().size() > 1;
        for (Repetition repetition : run.repetitions()) {
            RunResult result = repetition.result();
            String status = status(repetition, result);
            statuses.add(status);
            Map<String, Double> values = result == null ? Map.of() : Columns.of(result);
            if (result != null && result.status() == RunStatus.COMPLETE) {
                completed.add(values);
                MeasuredLatency.addTo(latency, repetition.folder(), result.workload().warmupSeconds());
            }
            if (repeated) {
                rows.add(new Row(cell.index() + "." + repetition.number(), cell.label(), values, status));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("number", repetition.number());
            entry.put("folder", repetition.folder().toString());
            entry.put("exitCode", repetition.ran() ? repetition.exitCode().code() : null);
            entry.put("status", status);
            entry.put("error", result == null ? null : result.error());
            entry.put("values", values);
            repetitionsJson.add(entry);
        }
        Map<String, Double> values;
        if (!repeated) {
            values = completed.isEmpty() ? Map.of() : completed.get(0);
        } else {
            values = completed.isEmpty() ? Map.of() : Columns.combined(completed, latency);
        }
        statuses.remove(OK);
        String status = statuses.isEmpty() ? OK : String.join(", ", statuses);
        failed |= status.contains("FAILED") || status.contains(NOT_RUN) || status.contains(RunStatus.INTERRUPTED.label());
        acknowledgedLost |= status.contains(ACKNOWLEDGED_LOST);
        rows.add(new Row(repeated ? cell.index() + ".all" : Integer.toString(cell.index()), cell.label(), values, status));

        Map<String, Object> entry = new LinkedHashMap<>();
        spreads.add(new Spread(cell, new RepeatedRuns<>(cell.label(), completed, run.repetitions().size()), entry));
        entry.put("index", cell.index());
        entry.put("label", cell.label());
        entry.put("command", cell.command());
        entry.put("system", cell.system());
        entry.put("args", run.args());
        entry.put("folder", run.folder().toString());
        entry.put("status", status);
        entry.put("values", values);
        entry.put("repetitions", repetitionsJson);
        return entry;
    }

    /**
     * Each cell's median run and spread, and with a baseline each other cell's verdicts against it,
     * into the text after the table and each cell's entry in summary.json.
     */
    private void spread(WorkloadFile file) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        int repeats = file.repeats();
        out.println(repeats == 1 ? "1 run per cell" : repeats + " runs per cell, interleaved; " + SpreadTable.EACH_FIGURE);
        List<RepeatedRuns<Map<String, Double>>> sets = spreads.stream().map(Spread::runs).toList();
        TextColumns.print(numbered(SpreadTable.bySet("cell", sets, FIGURES), spreads), 2, out);
        spreads.forEach(s -> s.json().put("figures", SpreadTable.json(s.runs(), FIGURES)));
        Spread base = file.baseline() == null ? null : spreads.stream()
                .filter(s -> s.cell().label().equalsIgnoreCase(file.baseline().label())).findFirst().orElse(null);
        if (base != null) {
            json.put("baseline", base.cell().label());
            json.put("rule", RunsVerdict.rule());
            List<Spread> others = spreads.stream().filter(s -> s != base).toList();
            out.println();
            out.println("verdicts against cell " + base.cell().index() + " (" + base.cell().label() + "), by "
                    + RunsVerdict.rule());
            TextColumns.print(numbered(SpreadTable.verdicts("cell", base.runs(), others.stream().map(Spread::runs)
                    .toList(), FIGURES), others), 2, out);
            int needed = RunsVerdict.fewestRunsPerSide();
            if (repeats < needed) {
                out.println("no verdict: needs " + needed + " repeats, this run has " + repeats + " per cell (repeats: "
                        + needed + " in the file, or --repeats " + needed + ")");
            }
            others.forEach(s -> s.json().put("verdicts", SpreadTable.verdictsJson(s.runs(), base.runs(), FIGURES)));
        }
        out.println();
        out.flush();
        text.toString().lines().forEach(spreadLines::add);
    }

    /** The rows with the cells' numbers before them. */
    private static List<String[]> numbered(List<String[]> rows, List<Spread> cells) {
        List<String[]> numbered = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] row = new String[rows.get(i).length + 1];
            row[0] = i == 0 ? "#" : Integer.toString(cells.get(i - 1).cell().index());
            System.arraycopy(rows.get(i), 0, row, 1, rows.get(i).length);
            numbered.add(row);
        }
        return numbered;
    }

    private static String status(Repetition repetition, RunResult result) {
        if (!repetition.ran()) {
            return NOT_RUN;
        }
        if (result == null) {
            return "FAILED (exit " + repetition.exitCode().code() + ", nothing measured)";
        }
        if (result.status() == RunStatus.INTERRUPTED) {
            return RunStatus.INTERRUPTED.label();
        }
        if (result.status() != RunStatus.COMPLETE
                || repetition.exitCode() != ExitCode.OK && repetition.exitCode() != ExitCode.ACKNOWLEDGED_LOST) {
            return "FAILED";
        }
        List<String> issues = new ArrayList<>();
        if (result.rates().targetMissed()) {
            issues.add("RATE MISSED");
        }
        if (result.counts().acknowledgedLost() > 0) {
            issues.add(ACKNOWLEDGED_LOST);
        }
        if (result.counts().unacknowledgedLost() > 0) {
            issues.add("LOST");
        }
        if (result.steadiness() != null && result.steadiness().verdict() == Steadiness.Verdict.NOT_STEADY) {
            issues.add(NOT_STEADY);
        }
        return issues.isEmpty() ? OK : String.join(", ", issues);
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            boolean left = i == 1 || i == cells.size() - 1;
            String format = left ? "%-" + widths[i] + "s" : "%" + widths[i] + "s";
            sb.append(i == 0 ? "" : "  ").append(String.format(Locale.US, format, cells.get(i)));
        }
        return sb.toString().stripTrailing();
    }
}
