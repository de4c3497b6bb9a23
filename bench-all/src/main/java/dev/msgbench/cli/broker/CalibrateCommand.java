package dev.msgbench.cli.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.HdrHistogram.Histogram;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.UnmatchedLine;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.workload.MeasuredLatency;
import dev.msgbench.core.analysis.StallCalibration;
import dev.msgbench.core.fault.FaultReport;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.system.Systems;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.core.units.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Proves, on this machine, that the suite shows a stall as it is (the \"Ctrl+Z\" test).",
                "",
                "Runs e2e against the real local broker at a fixed rate and stops the broker (SIGSTOP) for --pause in "
                        + "the middle of the measured window, then compares the measured latency with what such a stall "
                        + "must give: a pause of P seconds in a window of D seconds delays a fraction P/D of the messages, "
                        + "evenly from P down to 0, so p(100 (1 - P/2D)) is about P/2, p(100 (1 - P/4D)) about 3P/4 and "
                        + "the max about P. A tool with coordinated omission shows none of it.",
                "",
                "A real broker may take longer than the pause to deliver again (NATS has been seen to deliver a few "
                        + "messages after SIGCONT, then nothing for a second). Such a delay is the system's, and shows as "
                        + "a gap in delivery after the resume: calibrate then checks the figures against the pause plus "
                        + "that gap, and says which it saw. Figures that match neither are a measurement error.",
                "",
                "Takes every e2e flag (see e2e --help) except --rate, --duration, --warmup and --fault, which it sets.",
                "",
                "With --power-loss it proves instead that --fault power-loss takes what a broker never synced, and "
                        + "only that: four short runs of redis-streams with its AOF, appendfsync everysec and always, each "
                        + "with a kill and with a power loss of its node, the consumers held back until after the fault. "
                        + "Redis's documentation gives the answers: everysec loses nothing acknowledged to a kill (the "
                        + "kernel still writes the page cache out) and up to a second to a power cut; always loses "
                        + "nothing to either. Needs root and FUSE, as every power-loss fault does.",
                ""},
        footer = {"", "Examples:",
                "  calibrate --system nats",
                "  calibrate --system kafka --pause 3s --duration 30s --broker-cpus 0 --cpus 1",
                "  calibrate --power-loss",
                "",
                "Results: OUTPUT/ holds the run's files, as e2e writes them (with --power-loss, a folder per run).",
                "Exit codes: 0 the measurement showed the stall as it was (with or without a real extra delay), "
                        + "or with --power-loss every run lost what it was expected to, "
                        + "1 it did not, or a run failed, 2 bad input, 130 interrupted."})
public final class CalibrateCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final List<String> SET_HERE = List.of("--rate", "--duration", "--warmup", "--fault", "--system");

    private final Io io;
    private final CellRunner runner;

    @Spec
    CommandSpec spec;

    @Option(names = "--system", paramLabel = "SYSTEM", completionCandidates = BrokerCommand.BrokerNames.class,
            description = "The system whose local broker is paused: ${COMPLETION-CANDIDATES}.")
    String system;

    @Option(names = "--power-loss",
            description = "Calibrate --fault power-loss instead of the stall: redis-streams, four runs (see above).")
    boolean powerLoss;

    @Option(names = "--pause", paramLabel = "TIME", defaultValue = "2s", converter = TimeConverter.class,
            description = "How long the broker is stopped (default: ${DEFAULT-VALUE}).")
    Duration pause;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "20s", converter = TimeConverter.class,
            description = "The measured window, at least four times the pause (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "5s", converter = TimeConverter.class,
            description = "Warm-up before the measured window (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--rate", paramLabel = "MSGS_PER_SEC", defaultValue = "1000",
            description = "The fixed rate (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder (default: results/<timestamp>-calibrate-<system>).")
    Path output;

    @Unmatched
    List<String> e2eFlags = new ArrayList<>();

    public CalibrateCommand(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    @Override
    public Integer call() {
        if (powerLoss) {
            return calibratePowerLoss();
        }
        if (system == null) {
            throw new ParameterException(spec.commandLine(), "calibrate needs --system (the broker it pauses), or "
                    + "--power-loss");
        }
        checkOwnFlags();
        Path dir = output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-calibrate-" + system);
        ParsedCell cell;
        try {
            cell = CellCheck.parse(io, e2eArgs(dir));
        } catch (ParameterException e) {
            throw new ParameterException(spec.commandLine(), UnmatchedLine.messageOf(e, "calibrate"));
        }
        CellOutcome outcome = runner.run(cell, dir);
        RunResult result = outcome.result();
        if (outcome.exitCode() == ExitCode.INTERRUPTED) {
            return ExitCode.INTERRUPTED.code();
        }
        if (result == null || result.status() != RunStatus.COMPLETE || result.faults().isEmpty()) {
            io.err().println("calibrate: the run did not complete" + (outcome.error() == null ? "" : ": " + outcome.error())
                    + "; nothing to compare");
            return ExitCode.RUN_FAILED.code();
        }
        FaultReport fault = result.faults().get(0);
        if (fault.event().doneAtSeconds() == null || fault.event().endedAtSeconds() == null) {
            io.err().println("calibrate: the pause was not carried out: " + fault.event().outcome());
            return ExitCode.RUN_FAILED.code();
        }
        Histogram latency = Recorders.newHistogram();
        MeasuredLatency.addTo(latency, dir, result.workload().warmupSeconds());
        double paused = fault.event().endedAtSeconds() - fault.event().doneAtSeconds();
        double baseline = fault.p99BeforeMs() == null ? 0 : fault.p99BeforeMs() / 1e3;
        double gapAfter = fault.gapAfterEndSeconds() == null ? 0 : fault.gapAfterEndSeconds();
        StallCalibration.Outcome judged = StallCalibration.judge(paused, duration.toNanos() / 1e9, latency, baseline, gapAfter);
        print(judged, result, dir);
        return judged.passed() ? ExitCode.OK.code() : ExitCode.RUN_FAILED.code();
    }

    private Integer calibratePowerLoss() {
        for (String own : List.of("--system", "--pause", "--duration", "--warmup", "--rate")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(own)) {
                throw new ParameterException(spec.commandLine(), own + " is the stall calibration's; --power-loss runs "
                        + PowerLossCalibration.SYSTEM + " in runs of its own, so drop " + own);
            }
        }
        for (String flag : e2eFlags) {
            for (String set : PowerLossCalibration.SET_HERE) {
                if (flag.equals(set) || flag.startsWith(set + "=")) {
                    throw new ParameterException(spec.commandLine(), set + " is set by calibrate --power-loss, whose "
                            + "answers hold for the settings it chooses; drop it");
                }
            }
        }
        Path dir = output != null ? output
                : Path.of("results", LocalDateTime.now().format(STAMP) + "-calibrate-power-loss");
        List<ParsedCell> cells;
        try {
            cells = PowerLossCalibration.cells(io, e2eFlags, dir);
        } catch (ParameterException e) {
            throw new ParameterException(spec.commandLine(), UnmatchedLine.messageOf(e, "calibrate"));
        }
        return new PowerLossCalibration(io, runner).run(cells, dir);
    }

    private void checkOwnFlags() {
        for (String flag : e2eFlags) {
            for (String own : SET_HERE) {
                if (flag.equals(own) || flag.startsWith(own + "=")) {
                    throw new ParameterException(spec.commandLine(), own + " is set by calibrate; give --pause, "
                            + "--duration, --warmup and --rate of calibrate instead");
                }
            }
        }
        List<String> withBroker = Systems.brokerNames();
        if (Systems.names().contains(system) && !withBroker.contains(system)) {
            throw new ParameterException(spec.commandLine(), "--system " + system + " has no broker to pause; give one of "
                    + String.join(", ", withBroker));
        }
        if (pause.isZero() || pause.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--pause must be positive, got " + Durations.format(pause));
        }
        if (duration.compareTo(pause.multipliedBy(4)) < 0) {
            throw new ParameterException(spec.commandLine(), "--duration must be at least four times --pause ("
                    + Durations.format(pause.multipliedBy(4)) + "), got " + Durations.format(duration));
        }
    }

    /** The e2e command line: the pause a quarter into the measured window, so there is a before and an after. */
    private List<String> e2eArgs(Path dir) {
        Duration at = duration.dividedBy(4);
        List<String> args = new ArrayList<>(List.of("e2e", "--system", system));
        args.addAll(e2eFlags);
        args.addAll(List.of("--rate", String.format(Locale.US, "%s", rate), "--duration", Durations.format(duration),
                "--warmup", Durations.format(warmup), "--fault",
                "pause=" + Durations.format(pause) + "@" + Durations.format(at), "--output", dir.toString()));
        return args;
    }

    private void print(StallCalibration.Outcome judged, RunResult result, Path dir) {
        io.out().println();
        io.out().printf(Locale.US, "calibrate %s: a %.3f s pause (SIGSTOP to SIGCONT) in a measured window of %.0f s at %,.0f "
                        + "msg/s%n", system, judged.pauseSeconds(), duration.toNanos() / 1e9, rate);
        if (judged.extraDelaySeconds() > 0) {
            io.out().printf(Locale.US, "  judged as a stall of %.3f s: the pause and %.3f s without delivery after it%n",
                    judged.stallSeconds(), judged.extraDelaySeconds());
        }
        io.out().printf("  %-10s %14s %24s %14s%n", "", "expected ms", "allowed ms", "measured ms");
        for (StallCalibration.Check check : judged.checks()) {
            io.out().printf(Locale.US, "  %-10s %,14.1f %11s .. %,9.1f %,14.1f  %s%n", check.label(), check.expectedMs(),
                    String.format(Locale.US, "%,.1f", check.lowMs()), check.highMs(), check.measuredMs(),
                    check.passed() ? "ok" : "OUT OF RANGE");
        }
        io.out().printf("  %s: %s%n", judged.verdict().name().replace('_', ' '), judged.explanation());
        io.out().printf("  lost %,d, load generator stalls max %s ms; results: %s%n", result.counts().lost(),
                hiccupMax(result), dir);
    }

    private static String hiccupMax(RunResult result) {
        Object hiccup = result.loadGenerator().get("hiccupMs");
        if (hiccup instanceof java.util.Map<?, ?> map && map.get("max") instanceof Number max) {
            return String.format(Locale.US, "%.1f", max.doubleValue());
        }
        return "-";
    }
}
