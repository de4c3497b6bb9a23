package dev.msgbench.cli.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.UnmatchedLine;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.measure.OutputFolder;
import dev.msgbench.core.ToolVersion;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.security.ScrubbingOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The highest rate a system sustains within a latency objective.",
                "",
                "Runs e2e at many rates, each run its own (its own local broker, its own folder, e2e's --warmup and "
                        + "--duration: short by default): one warm-up run at the start rate, not judged; then steps up from "
                        + "the start rate until a step misses (the objective, the target rate, a lost message); then "
                        + "bisects between the last passing rate and the first missing one down to --resolution. A step "
                        + "that misses runs again: --must-pass of --repeats runs must pass. The knee is the highest rate "
                        + "that passed its repeats; it is run --repeats times in all and reported with their spread. A run "
                        + "that fails (not a miss) ends the search. The most runs it can take is said before it starts. "
                        + "Latency only means something at a stated load: this finds the loads where it means what you need.",
                "",
                "Takes every e2e flag (see e2e --help) except --rate, which the sweep sets.",
                ""},
        footer = {"", "Examples:",
                "  sweep --system nats --objective 'p99.9<=10ms'",
                "  sweep --system kafka,jetstream --brokers 3 --acks all --objective 'p99<=5ms' --max-rate 20000",
                "  sweep --system kafka --size 256B --duration 20s --objective 'p99.99<=20ms' --max-rate 50000",
                "  sweep --system redis --objective 'p99<=2ms' --repeats 5 --must-pass 4 --resolution 2%%",
                "  sweep --system nats --objective none --dry-run     (the most runs and time it may take)",
                "",
                "Results: OUTPUT/<nn>-<system>-<rate>/ per run, and sweep.txt and sweep.json with the table and the knee.",
                "Exit code: 0 when the sweep ran (whatever it found), 1 when a step failed, 2 for bad flags, 4 when no "
                        + "step failed and one lost messages the system had acknowledged, 130 interrupted."})
public final class SweepCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    public static final String TEXT = "sweep.txt";
    public static final String JSON = "sweep.json";
    private static final String INTERRUPTED = "interrupted";
    private static final String FAILED = "FAILED";

    private final Io io;
    private final CellRunner runner;

    @Spec
    CommandSpec spec;

    @Option(names = "--system", paramLabel = "SYSTEM", split = ",", defaultValue = "kafka",
            description = "The systems to sweep, one after the other (default: ${DEFAULT-VALUE}). Flags of one system "
                    + "only can be given when sweeping that system alone.")
    List<String> systems;

    @Option(names = "--objective", paramLabel = "PNN<=LATENCY", required = true, converter = Objective.Converter.class,
            description = "The latency objective: p99.9<=10ms, p99<=500us, max<=1s (percentiles p50 to p99.9999, or max); "
                    + "none: latency is not judged, a step passes when its target rate is met and nothing is lost.")
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

    @Mixin
    KneeOptions knee = new KneeOptions();

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder, one folder per run inside (default: results/<timestamp>-sweep-<systems>).")
    Path output;

    @Unmatched
    List<String> e2eFlags = new ArrayList<>();

    public SweepCommand(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    /** One run: the rate asked, why, what came back, and whether it passed. */
    private record Step(int number, String system, double rate, KneeSearch.Phase phase, Path folder, ExitCode exitCode,
                        RunResult result, Double statistic, String verdict, boolean passed) {

        boolean judged() {
            return phase != KneeSearch.Phase.WARM_UP;
        }
    }

    @Override
    public Integer call() throws Exception {
        checkOwnFlags();
        ParsedCell first = null;
        for (String system : systems) {
            try {
                first = CellCheck.parse(io, args(system, startRate));
            } catch (ParameterException e) {
                throw new ParameterException(spec.commandLine(), UnmatchedLine.messageOf(e, "sweep"));
            }
        }
        io.out().println(plan(first));
        if (knee.dryRun) {
            io.out().println("nothing run (--dry-run)");
            return ExitCode.OK.code();
        }
        Path dir = output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-sweep-"
                + String.join("-", systems));
        OutputFolder.requireWritable(spec.commandLine(), dir);
        String startedAt = Instant.now().toString();
        List<Step> steps = new ArrayList<>();
        Map<String, KneeSearch.Result> knees = new LinkedHashMap<>();
        int maxRuns = search().maxRuns();
        for (String system : systems) {
            int[] run = {0};
            KneeSearch.Result found = search().search((rate, phase) -> {
                int number = steps.size() + 1;
                run[0]++;
                Path folder = dir.resolve(String.format(Locale.US, "%02d-%s-%s%s", number, system, rateText(rate),
                        phase == KneeSearch.Phase.WARM_UP ? "-warm-up" : ""));
                io.out().printf(Locale.US, "%n=== sweep %s, run %d of at most %d (%s): %s msg/s (objective %s)%n", system,
                        run[0], maxRuns, phase.label, number(rate), objective.text());
                // checked above at the start rate: a higher rate passes every check the start rate passed
                CellOutcome outcome = runner.run(CellCheck.parse(io, args(system, rate)), folder);
                Step done = judge(number, system, rate, phase, folder, outcome);
                steps.add(done);
                io.out().println("=== " + (done.passed() ? "pass" : done.verdict()) + (done.judged() ? "" : " (warm-up: not judged)"));
                return verdict(done);
            });
            knees.put(system, found);
            if (found.end() == KneeSearch.End.INTERRUPTED) {
                break;
            }
        }
        List<String> report = report(steps, knees);
        report.forEach(io.out()::println);
        write(dir, report, steps, knees, startedAt);
        if (knees.values().stream().anyMatch(k -> k.end() == KneeSearch.End.INTERRUPTED)) {
            return ExitCode.INTERRUPTED.code();
        }
        return worst(steps.stream().map(Step::exitCode).toList()).code();
    }

    private KneeSearch search() {
        return new KneeSearch(startRate, step, maxRate, knee.repeats, knee.mustPass, knee.resolution, knee.warmUpRuns);
    }

    private static KneeSearch.Verdict verdict(Step step) {
        if (step.verdict().equals(INTERRUPTED)) {
            return KneeSearch.Verdict.INTERRUPTED;
        }
        if (step.verdict().startsWith(FAILED)) {
            return KneeSearch.Verdict.FAILED;
        }
        return step.passed() ? KneeSearch.Verdict.PASS : KneeSearch.Verdict.MISS;
    }

    /** What the sweep will do and the most it may take, said before it starts. */
    private String plan(ParsedCell cell) {
        KneeSearch search = search();
        List<Double> ramp = search.rampRates();
        Duration perRun = Duration.ZERO;
        String bound = "";
        if (cell.pacing() instanceof Pacing.FixedRate fixed) {
            perRun = fixed.warmup().plus(fixed.duration());
            bound = fixed.autoWarmup() ? "at most " : "";
        }
        int runs = search.maxRuns() * systems.size();
        return String.format(Locale.US, "sweep plan: %s; then up to %d step%s from %s to %s msg/s (%s); then bisection "
                        + "between the last pass and the first miss to %s (at most %d step%s); %s; the knee (the highest "
                        + "rate that passed its repeats) "
                        + "is run %d time%s in all. At most %d run%s%s of %s%s each: %s%s, plus a broker start per run.",
                knee.warmUpRuns == 0 ? "no warm-up run" : knee.warmUpRuns + " warm-up run" + (knee.warmUpRuns == 1 ? "" : "s")
                        + " at " + number(startRate) + " msg/s, not judged",
                ramp.size(), ramp.size() == 1 ? "" : "s", number(startRate), number(ramp.get(ramp.size() - 1)), step.text(),
                knee.resolution.text(), search.maxBisectSteps(), search.maxBisectSteps() == 1 ? "" : "s",
                // "up to 1 runs, 1 of which must pass" said a run again that --repeats 1 never makes
                knee.repeats == 1 ? "a step that misses is not run again"
                        : "a step that misses runs again, up to " + knee.repeats + " runs, " + knee.mustPass
                                + " of which must pass",
                knee.repeats, knee.repeats == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
                systems.size() == 1 ? "" : " (" + search.maxRuns() + " per system)", bound, human(perRun),
                bound.isEmpty() ? "at most " : "at most about ", human(perRun.multipliedBy(runs)));
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.US, "%dh %02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.US, "%dm %02ds", s / 60, s % 60) : s + "s";
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
        knee.check(spec);
    }

    /** The e2e command line of one step. */
    private List<String> args(String system, double rate) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", system));
        args.addAll(e2eFlags);
        args.addAll(List.of("--rate", rateText(rate)));
        return args;
    }

    private Step judge(int number, String system, double rate, KneeSearch.Phase phase, Path folder, CellOutcome outcome) {
        ExitCode code = outcome.exitCode();
        RunResult result = outcome.result();
        Double value = result == null ? null : objective.valueIn(result.latenciesMs().latency());
        String verdict;
        if (code == ExitCode.INTERRUPTED || result != null && result.status() == RunStatus.INTERRUPTED) {
            verdict = INTERRUPTED;
        } else if (code != ExitCode.OK && code != ExitCode.ACKNOWLEDGED_LOST || result == null
                || result.status() != RunStatus.COMPLETE) {
            verdict = FAILED + " (exit " + code.code() + (result != null && result.error() != null ? ": " + result.error() : "")
                    + ")";
        } else if (result.rates().targetMissed()) {
            verdict = String.format(Locale.US, "target rate missed (achieved %s of %s msg/s)",
                    number(result.rates().achievedMsgsPerSec()), number(rate));
        } else if (result.counts().acknowledgedLost() > 0) {
            verdict = String.format(Locale.US, "%,d acknowledged messages lost (a broken promise)",
                    result.counts().acknowledgedLost());
        } else if (result.counts().lost() > 0) {
            verdict = String.format(Locale.US, "%,d messages lost", result.counts().lost());
        } else if (value == null && !objective.none()) {
            verdict = "nothing measured";
        } else if (value != null && !objective.metBy(value)) {
            verdict = String.format(Locale.US, "objective missed (%s = %,.3f ms)", objective.statistic(), value);
        } else {
            return new Step(number, system, rate, phase, folder, code, result, value, "pass", true);
        }
        return new Step(number, system, rate, phase, folder, code, result, value, verdict, false);
    }

    private List<String> report(List<Step> steps, Map<String, KneeSearch.Result> knees) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add(String.format(Locale.US, "sweep: objective %s, from %s msg/s, step %s, up to %s msg/s, %d of %d runs must "
                        + "pass, resolution %s, %d warm-up run%s; flags: %s",
                objective.text(), number(startRate), step.text(), number(maxRate), knee.mustPass, knee.repeats,
                knee.resolution.text(), knee.warmUpRuns, knee.warmUpRuns == 1 ? "" : "s",
                e2eFlags.isEmpty() ? "(e2e defaults)" : String.join(" ", e2eFlags)));
        String format = "%4s  %-14s  %-7s  %14s  %14s  %12s  %8s  %-16s  %s";
        lines.add(String.format(Locale.US, format, "run", "system", "phase", "target msg/s", "achieved msg/s",
                objective.statistic() + " ms", "lost", "cpu busy", "result"));
        for (Step s : steps) {
            lines.add(String.format(Locale.US, format, s.number(), s.system(), s.phase().label, number(s.rate()),
                    s.result() == null ? "-" : number(s.result().rates().achievedMsgsPerSec()),
                    s.statistic() == null ? "-" : String.format(Locale.US, "%,.3f", s.statistic()),
                    s.result() == null ? "-" : String.format(Locale.US, "%,d", s.result().counts().lost()),
                    CpuContention.brief(s.result() == null ? null : s.result().cpu()),
                    s.verdict() + (s.judged() ? "" : " (not judged)")).stripTrailing());
        }
        lines.add("");
        for (String system : systems) {
            KneeSearch.Result found = knees.get(system);
            lines.add(system + ": " + (found == null ? "not swept (interrupted)" : kneeLine(system, found, steps)));
            String straddle = straddleLine(system, steps);
            if (straddle != null) {
                lines.add(system + ": " + straddle);
            }
        }
        if (steps.stream().anyMatch(s -> s.result() != null && CpuContention.disturbed(s.result().cpu()))) {
            lines.add("(cpu busy: the machine's CPUs over a run's measured window; contention: the load generator and the "
                    + "broker competed for cores, busy machine: other processes or the hypervisor took them; such a step "
                    + "measured the machine as much as the system: see its warnings)");
        }
        lines.add("(the knee is the highest rate that passed " + knee.mustPass + " of " + knee.repeats + " runs; a run passes "
                + "when " + (objective.none() ? "" : "its " + objective.statistic() + " from the intended send time is within "
                + "the objective, ") + "the target rate is met and nothing is lost)");
        return lines;
    }

    private String kneeLine(String system, KneeSearch.Result found, List<Step> steps) {
        String end = switch (found.end()) {
            case BRACKETED -> "; the lowest rate above it that missed: " + number(found.firstMissMsgsPerSec())
                    + " msg/s (--resolution " + knee.resolution.text() + "): " + lastVerdictAt(steps, system,
                    found.firstMissMsgsPerSec());
            case MAX_RATE -> " (--max-rate reached; the system may sustain more)";
            case NONE_PASSED -> "";
            case FAILED -> "; the search stopped at a run that failed: " + lastRun(steps, system).verdict();
            case INTERRUPTED -> "; the search was interrupted";
            case BUDGET -> "; the search stopped after its " + found.runs() + " runs (knees kept failing their repeats)";
        };
        if (found.kneeMsgsPerSec() == null) {
            if (found.end() == KneeSearch.End.NONE_PASSED) {
                return "knee: none; the first step (" + number(startRate) + " msg/s) did not pass " + knee.mustPass + " of "
                        + knee.repeats + " runs: " + lastVerdictAt(steps, system, startRate) + "; lower --start-rate";
            }
            return "knee: none" + end;
        }
        double rate = found.kneeMsgsPerSec();
        List<Step> atKnee = steps.stream().filter(s -> s.system().equals(system) && s.judged() && s.rate() == rate).toList();
        long passed = atKnee.stream().filter(Step::passed).count();
        long disturbed = atKnee.stream().filter(s -> s.result() != null && CpuContention.disturbed(s.result().cpu())).count();
        return "knee " + (found.confirmed() ? "" : "(not confirmed) ") + number(rate) + " msg/s (" + objective.text()
                + "), passed " + passed + " of " + atKnee.size() + " run" + (atKnee.size() == 1 ? "" : "s") + spread(atKnee)
                + (disturbed == 0 ? "" : String.format(Locale.US, "; %d of them with the CPUs contended or the machine busy",
                disturbed)) + end;
    }

    /**
     * Where the runs at one rate both passed and missed: the knee then depends on which run came
     * first, so it is not repeatable at this run length. Null when every rate's runs agreed.
     */
    private String straddleLine(String system, List<Step> steps) {
        Map<Double, List<Step>> byRate = new TreeMap<>();
        steps.stream().filter(s -> s.system().equals(system) && s.judged() && s.result() != null)
                .forEach(s -> byRate.computeIfAbsent(s.rate(), r -> new ArrayList<>()).add(s));
        List<String> rates = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Map.Entry<Double, List<Step>> e : byRate.entrySet()) {
            long passed = e.getValue().stream().filter(Step::passed).count();
            if (passed > 0 && passed < e.getValue().size()) {
                rates.add(String.format(Locale.US, "at %s msg/s %d of %d runs passed", number(e.getKey()), passed,
                        e.getValue().size()));
                e.getValue().stream().map(Step::statistic).filter(v -> v != null).forEach(values::add);
            }
        }
        if (rates.isEmpty()) {
            return null;
        }
        String range = values.isEmpty() || objective.none() ? "" : String.format(Locale.US, " (%s from %,.3f to %,.3f ms "
                + "against %s)", objective.statistic(), values.stream().min(Double::compare).orElseThrow(),
                values.stream().max(Double::compare).orElseThrow(), objective.text());
        return "the knee is not repeatable at this run length: " + String.join(", ", rates) + range
                + "; longer runs (a longer --duration) or more repeats (--repeats " + Math.max(5, knee.repeats + 2)
                + " --must-pass " + Math.max(4, knee.mustPass + 2) + ") would settle it";
    }

    /** The objective's statistic over the knee's runs: min, median, max. */
    private String spread(List<Step> atKnee) {
        List<Double> values = atKnee.stream().map(Step::statistic).filter(v -> v != null).sorted().toList();
        if (values.isEmpty()) {
            return "";
        }
        return String.format(Locale.US, "; %s over them: min %,.3f, median %,.3f, max %,.3f ms", objective.statistic(),
                values.get(0), median(values), values.get(values.size() - 1));
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String lastVerdictAt(List<Step> steps, String system, double rate) {
        String verdict = "-";
        for (Step s : steps) {
            if (s.system().equals(system) && s.judged() && s.rate() == rate && !s.passed()) {
                verdict = s.verdict();
            }
        }
        return verdict;
    }

    private static Step lastRun(List<Step> steps, String system) {
        Step last = null;
        for (Step s : steps) {
            if (s.system().equals(system)) {
                last = s;
            }
        }
        return last;
    }

    private void write(Path dir, List<String> report, List<Step> steps, Map<String, KneeSearch.Result> knees,
                       String startedAt) throws IOException {
        try (PrintStream out = new PrintStream(new ScrubbingOutputStream(Files.newOutputStream(dir.resolve(TEXT))), false,
                StandardCharsets.UTF_8)) {
            report.forEach(out::println);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("tool", ToolVersion.NAME);
        json.put("toolVersion", ToolVersion.version());
        Map<String, Object> objectiveJson = new LinkedHashMap<>();
        objectiveJson.put("statistic", objective.statistic());
        objectiveJson.put("limitMs", objective.none() ? null : objective.limitMs());
        objectiveJson.put("text", objective.text());
        json.put("objective", objectiveJson);
        json.put("startRate", startRate);
        json.put("step", step.text());
        json.put("maxRate", maxRate);
        json.put("repeats", knee.repeats);
        json.put("mustPass", knee.mustPass);
        json.put("resolution", knee.resolution.text());
        json.put("warmUpRuns", knee.warmUpRuns);
        json.put("maxRunsPerSystem", search().maxRuns());
        json.put("e2eFlags", e2eFlags);
        json.put("startedAt", startedAt);
        json.put("finishedAt", Instant.now().toString());
        List<Object> stepsJson = new ArrayList<>();
        for (Step s : steps) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("number", s.number());
            entry.put("system", s.system());
            entry.put("phase", s.phase().label);
            entry.put("targetRate", s.rate());
            entry.put("achievedRate", s.result() == null ? null : s.result().rates().achievedMsgsPerSec());
            entry.put(objective.statistic() + "Ms", s.statistic());
            entry.put("lost", s.result() == null ? null : s.result().counts().lost());
            entry.put("cpu", cpuFigure(s, "summary"));
            entry.put("cpuContention", cpuFigure(s, "contention"));
            entry.put("busyMachine", cpuFigure(s, "busyMachine"));
            entry.put("judged", s.judged());
            entry.put("passed", s.passed());
            entry.put("result", s.verdict());
            entry.put("exitCode", s.exitCode().code());
            entry.put("folder", s.folder().toString());
            stepsJson.add(entry);
        }
        json.put("steps", stepsJson);
        Map<String, Object> highest = new LinkedHashMap<>();
        Map<String, Object> kneesJson = new LinkedHashMap<>();
        for (String system : systems) {
            KneeSearch.Result found = knees.get(system);
            highest.put(system, found == null ? null : found.kneeMsgsPerSec());
            kneesJson.put(system, found == null ? null : kneeJson(system, found, steps));
        }
        json.put("highestSustainableRate", highest);
        json.put("knee", kneesJson);
        ResultFiles.json().writeValue(dir.resolve(JSON).toFile(), Redaction.redact(json));
    }

    /** One key of a step's result.json {@code cpu}; null where the step has no result or watched no CPU. */
    private static Object cpuFigure(Step s, String key) {
        return s.result() == null || s.result().cpu() == null ? null : s.result().cpu().get(key);
    }

    private Map<String, Object> kneeJson(String system, KneeSearch.Result found, List<Step> steps) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("rate", found.kneeMsgsPerSec());
        entry.put("confirmed", found.confirmed());
        entry.put("end", found.end().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        entry.put("firstMissRate", found.firstMissMsgsPerSec());
        entry.put("runs", found.runs());
        if (found.kneeMsgsPerSec() != null) {
            double rate = found.kneeMsgsPerSec();
            List<Step> atKnee = steps.stream().filter(s -> s.system().equals(system) && s.judged() && s.rate() == rate).toList();
            entry.put("kneeRuns", atKnee.size());
            entry.put("kneePassed", atKnee.stream().filter(Step::passed).count());
            List<Double> values = atKnee.stream().map(Step::statistic).filter(v -> v != null).toList();
            entry.put(objective.statistic() + "Ms", values);
            List<Double> sorted = values.stream().sorted().toList();
            entry.put("min", sorted.isEmpty() ? null : sorted.get(0));
            entry.put("median", sorted.isEmpty() ? null : median(sorted));
            entry.put("max", sorted.isEmpty() ? null : sorted.get(sorted.size() - 1));
        }
        return entry;
    }

    private static String rateText(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : String.format(Locale.US, "%.3f", rate);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.US, "%,d", (long) value)
                : String.format(Locale.US, "%,.1f", value);
    }
}
