package dev.msgbench.cli.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.msgbench.cli.ErrorLines;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.report.Report;
import dev.msgbench.core.result.ResultFiles;

/**
 * Runs a workload's checked cells in their {@link RunOrder}, each run into its folder, going on
 * past a failed cell and stopping at an interrupt (the runs not made are listed as not run); then
 * writes and prints the summary and writes the HTML report.
 */
final class WorkloadRun {

    private final Io io;
    private final CellRunner runner;

    WorkloadRun(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    /**
     * @param cells  the cells, scaled; {@code parsed} and {@code args} hold each one's checked
     *               command and its flags as printed, in the same order
     * @param dir    the results folder, checked to be unused and writable
     */
    ExitCode run(WorkloadFile workload, double scale, List<Cell> cells, List<ParsedCell> parsed, List<List<String>> args,
                 RunOrder order, Path dir) throws IOException {
        String startedAt = Instant.now().toString();
        List<List<SummaryReport.Repetition>> ran = new ArrayList<>();
        List<Path> cellDirs = new ArrayList<>();
        for (Cell cell : cells) {
            ran.add(new ArrayList<>());
            cellDirs.add(ResultsFolders.ofCell(dir, cell));
        }
        boolean interrupted = false;
        for (RunOrder.Step step : order.steps()) {
            int i = step.cell();
            int r = step.run();
            Cell cell = cells.get(i);
            Path runDir = order.folder(cellDirs.get(i), r);
            if (interrupted) {
                ran.get(i).add(SummaryReport.Repetition.notRun(r, runDir));
                continue;
            }
            io.out().printf(Locale.US, "%n=== cell %d (%d of %d)%s: %s%n    %s%n", cell.index(), i + 1, cells.size(),
                    order.which(r), cell.label(), String.join(" ", args.get(i)));
            CellOutcome outcome = runner.run(parsed.get(i), runDir);
            ran.get(i).add(SummaryReport.Repetition.ran(r, runDir, outcome.exitCode(), outcome.result()));
            if (outcome.exitCode() == ExitCode.INTERRUPTED) {
                interrupted = true;
            } else if (outcome.exitCode() == ExitCode.ACKNOWLEDGED_LOST) {
                io.err().println("cell " + cell.index() + " (" + cell.label() + ") lost messages the system had "
                        + "acknowledged (exit code " + outcome.exitCode().code() + "); going on with the next");
            } else if (outcome.exitCode() != ExitCode.OK) {
                io.err().println("cell " + cell.index() + " (" + cell.label() + ") failed with exit code "
                        + outcome.exitCode().code() + "; going on with the next");
            }
        }
        List<SummaryReport.CellRun> done = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            done.add(new SummaryReport.CellRun(cells.get(i), args.get(i), cellDirs.get(i), ran.get(i)));
        }
        SummaryReport report = SummaryReport.of(workload, scale, done, dir, startedAt);
        report.write(dir);
        report.print(io.out());
        writePage(workload, done, dir);
        if (interrupted) {
            return ExitCode.INTERRUPTED;
        }
        if (report.anyFailed()) {
            return ExitCode.RUN_FAILED;
        }
        return report.anyAcknowledgedLost() ? ExitCode.ACKNOWLEDGED_LOST : ExitCode.OK;
    }

    /** The HTML report of every run that left results, beside the summary. */
    private void writePage(WorkloadFile workload, List<SummaryReport.CellRun> done, Path dir) {
        List<Path> runDirs = new ArrayList<>();
        for (SummaryReport.CellRun cell : done) {
            for (SummaryReport.Repetition repetition : cell.repetitions()) {
                if (Files.exists(repetition.folder().resolve(ResultFiles.RESULT_JSON))) {
                    runDirs.add(repetition.folder());
                }
            }
        }
        if (runDirs.isEmpty()) {
            return;
        }
        try {
            // with repeats the report reads summary.json too, for a chart per figure of every cell's runs
            Report.Written page = Report.write(workload.repeats() > 1 || workload.baseline() != null ? List.of(dir) : runDirs,
                    dir.resolve("report.html"), new Report.Options(false, workload.name()));
            io.out().println("report: " + page.html());
            page.leftOut().forEach(line -> io.err().println("the report left out: " + line));
        } catch (RuntimeException e) {
            // the results and the summary are written: a chart that fails must not hide them
            io.err().println("error: the HTML report could not be written: "
                    + ErrorLines.oneLine(String.valueOf(e.getMessage())) + "; the results are in " + dir);
        }
    }
}
