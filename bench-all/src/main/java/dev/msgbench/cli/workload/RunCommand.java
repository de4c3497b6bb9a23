package dev.msgbench.cli.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.measure.OutputFolder;
import dev.msgbench.cli.measure.ThroughputCommand;
import dev.msgbench.cli.sweep.OmbRateSearch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Runs every cell of a workload file: one published experiment, as a matrix of e2e or throughput runs.",
                "",
                "Every cell's flags are checked first, so a mistake anywhere in the file is reported before anything "
                        + "runs, with its line. Each cell then runs as its command would from the command line, with its "
                        + "own local broker, into OUTPUT/<nn>-<label>/; a failed cell is reported and the run goes on. "
                        + "At the end a table like the published ones is printed and written to summary.txt, with every "
                        + "cell's flags and values in summary.json. Also reads OpenMessaging Benchmark workload files.",
                "",
                "With repeats (the file's 'repeats: N' or --repeats N) each cell runs N times, interleaved with the other "
                        + "cells (A B C A B C ...), each run into OUTPUT/<nn>-<label>/run-<k>/; the summary adds each cell's "
                        + "median run and spread (lowest..highest run) for p50, p99, p99.9, max and the rates, and with a "
                        + "baseline ('baseline: <label>' or --baseline) a verdict per figure for every other cell against it.",
                ""},
        footer = {"", "Examples:",
                "  run workloads/e3-message-queue-latency.yaml --dry-run",
                "  run workloads/e1-commit-log-latency.yaml --scale 0.1 --repetitions 1",
                "  run workloads/e3-message-queue-latency.yaml --only kafka --only nats",
                "  run workloads/e3-message-queue-latency.yaml --repeats 5 --baseline 'kafka 1KiB @ 3,000/s'",
                "  run workloads/omb-1-topic-16-partitions-1kb.yaml --set url=broker-1:9092",
                "  run workloads/omb-1-topic-16-partitions-1kb.yaml --driver driver-pulsar/pulsar.yaml --dry-run",
                "",
                "Exit code: 0 when every cell ran, 1 when one failed, 2 for a mistake in the file or the flags, 4 when "
                        + "none failed and one lost messages the system had acknowledged, 130 interrupted."})
public final class RunCommand implements Callable<Integer> {

    private final Io io;
    private final CellRunner runner;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "A workload file (workloads/README.md), or an OpenMessaging Benchmark workload.")
    Path file;

    @Option(names = "--scale", paramLabel = "FACTOR", defaultValue = "1",
            description = "Multiply durations, warm-ups and message counts by this, never rates or sizes: 0.1 for a quick "
                    + "look (at least 1 s and 1 message per cell) (default: ${DEFAULT-VALUE}: the published parameters).")
    double scale;

    @Option(names = "--repetitions", paramLabel = "N",
            description = "Run each cell N times instead of the file's repetitions.")
    Integer repetitions;

    @Option(names = "--repeats", paramLabel = "N",
            description = "Run each cell N times in all, interleaved with the other cells (A B C A B C ...) so that the "
                    + "machine's drift hits every cell alike, instead of the file's repeats; the summary adds each cell's "
                    + "median run and spread (lowest..highest run). A verdict against --baseline needs 4.")
    Integer repeats;

    @Option(names = "--baseline", paramLabel = "CELL",
            description = "Compare every other cell with this one (its label, as --dry-run lists them; ignoring case), "
                    + "instead of the file's baseline: per figure better, worse or within noise, by a two-sided "
                    + "Mann-Whitney rank test over the runs (exact p, 5%%), which needs 4 runs a side; fewer give the "
                    + "spread and \"no verdict\".")
    String baseline;

    @Option(names = "--only", paramLabel = "TEXT",
            description = "Run only the cells whose label contains TEXT, ignoring case (repeatable: any of them).")
    List<String> only = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A flag for every cell, over the file's: --set url=broker-1:9092, --set broker-prop=k=v (repeatable).")
    List<String> set = new ArrayList<>();

    @Option(names = "--system", paramLabel = "SYSTEM", defaultValue = "kafka",
            description = "For an OpenMessaging Benchmark file: the system to run it against (default: ${DEFAULT-VALUE}). "
                    + "A msgbench file names its own systems.")
    String system;

    @Option(names = "--driver", paramLabel = "FILE",
            description = "For an OpenMessaging Benchmark file: OMB's driver file (driver-kafka/kafka.yaml, "
                    + "driver-pulsar/pulsar.yaml): the system from its driverClass, its durability and client fields as "
                    + "flags, each field without a flag here said in a warning; at OMB's placeholder address "
                    + "(localhost) the suite starts its own broker, a cluster where the file's replication needs one.")
    Path driver;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder, one folder per cell inside (default: results/<timestamp>-<file name>).")
    Path output;

    @Option(names = "--dry-run", description = "Check every cell and print its command line, without running anything.")
    boolean dryRun;

    @Option(names = {"-q", "--quiet"}, description = "No live line while cells run.")
    boolean quiet;

    @Mixin
    OmbRateSearch.Options rateSearch = new OmbRateSearch.Options();

    public RunCommand(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    @Override
    public Integer call() throws Exception {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new ParameterException(spec.commandLine(), "--scale must be a number above 0, got " + scale);
        }
        if (repetitions != null && repetitions < 1) {
            throw new ParameterException(spec.commandLine(), "--repetitions must be at least 1, got " + repetitions);
        }
        if (repeats != null && repeats < 1) {
            throw new ParameterException(spec.commandLine(), "--repeats must be at least 1, got " + repeats);
        }
        Catalogs catalogs = CellCheck.catalogs(io);
        boolean systemGiven = spec.commandLine().getParseResult().hasMatchedOption("--system");
        OmbDriver.Read driverRead = null;
        if (driver != null) {
            if (systemGiven) {
                throw new ParameterException(spec.commandLine(), "--driver " + driver + " names its system (driverClass); "
                        + "leave out --system");
            }
            driverRead = OmbDriver.read(driver, driver.toString(),
                    overrides().stream().anyMatch(s -> s.key().equals("url")));
        }
        WorkloadFile workload = WorkloadReader.read(file, file.toString(), catalogs,
                driverRead != null ? driverRead.system() : system);
        if (driverRead != null) {
            if (!workload.fromOmb()) {
                throw new ParameterException(spec.commandLine(), "--driver applies to an OpenMessaging Benchmark "
                        + "workload file; " + file + " names its own systems and flags");
            }
            workload = workload.withDriver(driverRead);
        }
        if (systemGiven && !workload.fromOmb()) {
            throw new ParameterException(spec.commandLine(), "--system applies to OpenMessaging Benchmark files; "
                    + file + " names its own systems (pick cells with --only, or give --set system=" + system + ")");
        }
        List<Cell> cells = select(Expansion.cells(workload, catalogs, overrides()));
        List<List<String>> args = new ArrayList<>();
        List<ParsedCell> parsed = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = Scaling.scale(cells.get(i), scale, catalogs.of(cells.get(i).command()),
                    ThroughputCommand.DEFAULT_MESSAGES);
            cells.set(i, cell);
            List<String> cellArgs = cell.args(catalogs.of(cell.command()));
            List<String> runArgs = new ArrayList<>(cellArgs);
            if (quiet) {
                runArgs.add("--quiet");
            }
            parsed.add(CellCheck.check(io, cell, runArgs));
            args.add(cellArgs);
        }
        int runs = repetitions != null ? repetitions : workload.repetitions();
        workload = workload.withRepeats(repeats != null ? repeats : workload.repeats(), baseline != null
                ? new WorkloadFile.Baseline(baseline, new Origin("--baseline")) : workload.baseline());
        if (runs > 1 && workload.repeats() > 1) {
            throw new ParameterException(spec.commandLine(), "repeats (" + workload.repeats() + ", interleaved) and "
                    + "repetitions (" + runs + ", back to back) cannot both be above 1; give --repetitions 1 or --repeats 1");
        }
        workload.warnings().forEach(w -> io.err().println("warning: " + w));
        if (rateSearch.objective != null && !workload.ombRateSearch()) {
            throw new ParameterException(spec.commandLine(), "--objective applies to an OpenMessaging Benchmark file with "
                    + "producerRate: 0 (a rate search); " + file + " runs at the rates it states");
        }
        if (workload.ombRateSearch() && (workload.repeats() > 1 || workload.baseline() != null)) {
            throw new ParameterException(spec.commandLine(), "--repeats and --baseline apply to cells run at their "
                    + "stated rates; " + file + " is a rate search (producerRate: 0), run as sweep");
        }
        if (workload.baseline() != null && !workload.ombRateSearch()) {
            BaselineCheck.requireOneCell(spec.commandLine(), workload.baseline(), cells, !only.isEmpty());
        }
        if (workload.ombRateSearch()) {
            Path dir = dryRun ? null : output != null ? output : ResultsFolders.byDefault(file);
            return OmbRateSearch.run(io, runner, file.toString(), args.get(0), rateSearch.objective, dir, dryRun, quiet);
        }
        if (dryRun) {
            new DryRunPlan(file, scale, catalogs).print(io.out(), workload, cells, args, parsed, runs);
            return ExitCode.OK.code();
        }
        Path dir = output != null ? output : ResultsFolders.byDefault(file);
        OutputFolder.requireUnused(spec.commandLine(), dir, false, false);
        OutputFolder.requireWritable(spec.commandLine(), dir);
        return new WorkloadRun(io, runner).run(workload, scale, cells, parsed, args,
                new RunOrder(cells.size(), runs, workload.repeats()), dir).code();
    }

    private List<Setting> overrides() {
        List<Setting> overrides = new ArrayList<>();
        for (String entry : set) {
            int eq = entry.indexOf('=');
            if (eq < 1) {
                throw new ParameterException(spec.commandLine(), "--set must be KEY=VALUE (a flag's name without --), got '"
                        + entry + "'");
            }
            overrides.add(new Setting(entry.substring(0, eq), new FlagValue.Scalar(entry.substring(eq + 1),
                    FlagValue.Type.UNTYPED), new Origin("--set " + entry)));
        }
        return overrides;
    }

    private List<Cell> select(List<Cell> cells) {
        if (only.isEmpty()) {
            return new ArrayList<>(cells);
        }
        List<Cell> selected = new ArrayList<>();
        for (Cell cell : cells) {
            String label = cell.label().toLowerCase(Locale.ROOT);
            if (only.stream().anyMatch(o -> label.contains(o.toLowerCase(Locale.ROOT)))) {
                selected.add(cell);
            }
        }
        if (selected.isEmpty()) {
            List<String> labels = new ArrayList<>();
            cells.forEach(c -> labels.add(c.label()));
            throw new ParameterException(spec.commandLine(), "--only " + String.join(", ", only) + " matches no cell of "
                    + file + " (cells: " + String.join("; ", labels) + ")");
        }
        return selected;
    }
}
