package dev.msgbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.msgbench.core.ToolVersion;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.ScrubbingOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The highest rate a system sustains within a latency objective.",
                "",
                "Runs e2e at increasing rates, each step a run of its own (its own local broker, its own folder, "
                        + "e2e's --warmup and --duration: short by default), and stops at the first step that misses the "
                        + "objective, misses its target rate, loses a message or fails. Latency only means something at a "
                        + "stated load: this finds the loads where it means what you need.",
                "",
                "Takes every e2e flag (see e2e --help) except --rate, which the sweep sets.",
                ""},
        footer = {"", "Examples:",
                "  sweep --system nats --objective p99.9<=10ms",
                "  sweep --system kafka,jetstream --acks all --objective p99<=5ms --start-rate 500 --step +500",
                "  sweep --system kafka --size 256B --duration 20s --objective p99.99<=20ms --max-rate 50000",
                "",
                "Results: OUTPUT/<nn>-<system>-<rate>/ per step, and sweep.txt and sweep.json with the table.",
                "Exit code: 0 when the sweep ran (whatever it found), 1 when a step failed, 2 for bad flags, 4 when no "
                        + "step failed and one lost messages the system had acknowledged, 130 interrupted."})
final class SweepCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    static final String TEXT = "sweep.txt";
    static final String JSON = "sweep.json";

    private final Io io;
    private final CellRunner runner;

    @Spec
    CommandSpec spec;

    @Option(names = "--system", paramLabel = "SYSTEM[,SYSTEM...]", split = ",", defaultValue = "kafka",
            description = "The systems to sweep, one after the other (default: ${DEFAULT-VALUE}). Flags of one system "
                    + "only can be given when sweeping that system alone.")
    List<String> systems;

    @Option(names = "--objective", paramLabel = "PNN<=LATENCY", required = true, converter = Objective.Converter.class,
            description = "The latency objective: p99.9<=10ms, p99<=500us, max<=1s (percentiles p50 to p99.9999, or max).")
    Objective objective;

    @Option(names = "--start-rate", paramLabel = "MSGS_PER_SEC", defaultValue = "1000",
            description = "The first step's rate, all producers together (default: ${DEFAULT-VALUE}).")
    double startRate;

    @Option(names = "--step", paramLabel = "xF|+R", defaultValue = "x2", converter = RateStep.Converter.class,
            description = "The next rate: x2 doubles it, +1000 adds 1,000 msg/s (default: ${DEFAULT-VALUE}).")
    RateStep step;

    @Option(names = "--max-rate", paramLabel = "MSGS_PER_SEC", defaultValue = "1000000",
            description = "The last rate tried; the sweep ends there even if it passes (default: ${DEFAULT-VALUE}).")
    double maxRate;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder, one folder per step inside (default: results/<timestamp>-sweep-<systems>).")
    Path output;

    @Unmatched
    List<String> e2eFlags = new ArrayList<>();

    SweepCommand(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    /** One step: the rate asked, what came back, and whether it passed. */
    private record Step(int number, String system, double rate, Path folder, ExitCode exitCode, RunResult result,
                        Double statistic, String verdict, boolean passed) {
    }

    @Override
    public Integer call() throws Exception {
        checkOwnFlags();
        for (String system : systems) {
            try {
                CellCheck.parse(io, args(system, startRate));
            } catch (ParameterException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        Path dir = output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-sweep-"
                + String.join("-", systems));
        Files.createDirectories(dir);
        String startedAt = Instant.now().toString();
        List<Step> steps = new ArrayList<>();
        boolean interrupted = false;
        for (String system : systems) {
            double rate = startRate;
            while (!interrupted) {
                int number = steps.size() + 1;
                Path folder = dir.resolve(String.format(Locale.US, "%02d-%s-%s", number, system, rateText(rate)));
                io.out().printf(Locale.US, "%n=== sweep %s, step %d: %s msg/s (objective %s)%n", system, number,
                        number(rate), objective.text());
                // checked above at the start rate: a higher rate passes every check the start rate passed
                CellOutcome outcome = runner.run(CellCheck.parse(io, args(system, rate)), folder);
                Step done = judge(number, system, rate, folder, outcome);
                steps.add(done);
                io.out().println("=== " + (done.passed() ? "pass" : "stop: " + done.verdict()));
                interrupted = outcome.exitCode() == ExitCode.INTERRUPTED;
                if (!done.passed() || rate >= maxRate) {
                    break;
                }
                rate = Math.min(step.next(rate), maxRate);
            }
        }
        List<String> report = report(steps);
        report.forEach(io.out()::println);
        write(dir, report, steps, startedAt);
        if (interrupted) {
            return ExitCode.INTERRUPTED.code();
        }
        return worst(steps.stream().map(Step::exitCode).toList()).code();
    }

    /** A failed step outranks one that lost acknowledged messages, which outranks the rest. */
    private static ExitCode worst(List<ExitCode> codes) {
        if (codes.stream().anyMatch(c -> c != ExitCode.OK && c != ExitCode.ACKNOWLEDGED_LOST)) {
            return ExitCode.RUN_FAILED;
        }
        return codes.contains(ExitCode.ACKNOWLEDGED_LOST) ? ExitCode.ACKNOWLEDGED_LOST : ExitCode.OK;
    }

    private void checkOwnFlags() {
        for (String flag : e2eFlags) {
            if (flag.equals("--rate") || flag.startsWith("--rate=")) {
                throw new ParameterException(spec.commandLine(), "--rate is what the sweep varies; give --start-rate, "
                        + "--step and --max-rate instead");
            }
        }
        if (!(startRate > 0) || Double.isInfinite(startRate)) {
            throw new ParameterException(spec.commandLine(), "--start-rate must be a positive number of messages per "
                    + "second, got " + number(startRate));
        }
        if (!(maxRate >= startRate) || Double.isInfinite(maxRate)) {
            throw new ParameterException(spec.commandLine(), "--max-rate must be at least --start-rate ("
                    + number(startRate) + "), got " + number(maxRate));
        }
    }

    /** The e2e command line of one step. */
    private List<String> args(String system, double rate) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", system));
        args.addAll(e2eFlags);
        args.addAll(List.of("--rate", rateText(rate)));
        return args;
    }

    private Step judge(int number, String system, double rate, Path folder, CellOutcome outcome) {
        ExitCode code = outcome.exitCode();
        RunResult result = outcome.result();
        Double value = result == null ? null : objective.valueIn(result.latenciesMs().latency());
        String verdict;
        if (code == ExitCode.INTERRUPTED || result != null && result.status() == RunStatus.INTERRUPTED) {
            verdict = "interrupted";
        } else if (code != ExitCode.OK && code != ExitCode.ACKNOWLEDGED_LOST || result == null
                || result.status() != RunStatus.COMPLETE) {
            verdict = "FAILED (exit " + code.code() + (result != null && result.error() != null ? ": " + result.error() : "")
                    + ")";
        } else if (result.rates().targetMissed()) {
            verdict = String.format(Locale.US, "target rate missed (achieved %s of %s msg/s)",
                    number(result.rates().achievedMsgsPerSec()), number(rate));
        } else if (result.counts().acknowledgedLost() > 0) {
            verdict = String.format(Locale.US, "%,d acknowledged messages lost (a broken promise)",
                    result.counts().acknowledgedLost());
        } else if (result.counts().lost() > 0) {
            verdict = String.format(Locale.US, "%,d messages lost", result.counts().lost());
        } else if (value == null) {
            verdict = "nothing measured";
        } else if (!objective.metBy(value)) {
            verdict = String.format(Locale.US, "objective missed (%s = %,.3f ms)", objective.statistic(), value);
        } else {
            return new Step(number, system, rate, folder, code, result, value, "pass", true);
        }
        return new Step(number, system, rate, folder, code, result, value, verdict, false);
    }

    private List<String> report(List<Step> steps) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add(String.format(Locale.US, "sweep: objective %s, from %s msg/s, step %s, up to %s msg/s; flags: %s",
                objective.text(), number(startRate), step.text(), number(maxRate),
                e2eFlags.isEmpty() ? "(e2e defaults)" : String.join(" ", e2eFlags)));
        String format = "%4s  %-14s  %14s  %14s  %12s  %8s  %s";
        lines.add(String.format(Locale.US, format, "step", "system", "target msg/s", "achieved msg/s",
                objective.statistic() + " ms", "lost", "result"));
        for (Step s : steps) {
            lines.add(String.format(Locale.US, format, s.number(), s.system(), number(s.rate()),
                    s.result() == null ? "-" : number(s.result().rates().achievedMsgsPerSec()),
                    s.statistic() == null ? "-" : String.format(Locale.US, "%,.3f", s.statistic()),
                    s.result() == null ? "-" : String.format(Locale.US, "%,d", s.result().counts().lost()), s.verdict()).stripTrailing());
        }
        lines.add("");
        for (String system : systems) {
            lines.add(system + ": " + highest(steps, system));
        }
        lines.add("(a step passes when its " + objective.statistic() + " from the intended send time is within the "
                + "objective, the target rate is met and nothing is lost)");
        return lines;
    }

    private String highest(List<Step> steps, String system) {
        Step best = null;
        Step last = null;
        for (Step s : steps) {
            if (s.system().equals(system)) {
                last = s;
                if (s.passed()) {
                    best = s;
                }
            }
        }
        if (last == null) {
            return "not swept (interrupted)";
        }
        if (best == null) {
            return "highest sustainable rate: none; the first step (" + number(startRate) + " msg/s) already failed: "
                    + last.verdict() + "; lower --start-rate";
        }
        String end = last.passed() ? " (--max-rate reached; the system may sustain more)" : "; at "
                + number(last.rate()) + " msg/s: " + last.verdict();
        return "highest sustainable rate: " + number(best.rate()) + " msg/s (" + objective.text() + ")" + end;
    }

    private void write(Path dir, List<String> report, List<Step> steps, String startedAt) throws IOException {
        try (PrintStream out = new PrintStream(new ScrubbingOutputStream(Files.newOutputStream(dir.resolve(TEXT))), false,
                StandardCharsets.UTF_8)) {
            report.forEach(out::println);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("tool", ToolVersion.NAME);
        json.put("toolVersion", ToolVersion.version());
        json.put("objective", Map.of("statistic", objective.statistic(), "limitMs", objective.limitMs(),
                "text", objective.text()));
        json.put("startRate", startRate);
        json.put("step", step.text());
        json.put("maxRate", maxRate);
        json.put("e2eFlags", e2eFlags);
        json.put("startedAt", startedAt);
        json.put("finishedAt", Instant.now().toString());
        List<Object> stepsJson = new ArrayList<>();
        for (Step s : steps) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("number", s.number());
            entry.put("system", s.system());
            entry.put("targetRate", s.rate());
            entry.put("achievedRate", s.result() == null ? null : s.result().rates().achievedMsgsPerSec());
            entry.put(objective.statistic() + "Ms", s.statistic());
            entry.put("lost", s.result() == null ? null : s.result().counts().lost());
            entry.put("passed", s.passed());
            entry.put("result", s.verdict());
            entry.put("exitCode", s.exitCode().code());
            entry.put("folder", s.folder().toString());
            stepsJson.add(entry);
        }
        json.put("steps", stepsJson);
        Map<String, Object> highest = new LinkedHashMap<>();
        for (String system : systems) {
            highest.put(system, steps.stream().filter(s -> s.system().equals(system) && s.passed())
                    .mapToDouble(Step::rate).max().stream().boxed().findFirst().orElse(null));
        }
        json.put("highestSustainableRate", highest);
        ResultFiles.json().writeValue(dir.resolve(JSON).toFile(), Redaction.redact(json));
    }

    private static String rateText(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : String.format(Locale.US, "%.3f", rate);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.US, "%,d", (long) value)
                : String.format(Locale.US, "%,.1f", value);
    }
}
