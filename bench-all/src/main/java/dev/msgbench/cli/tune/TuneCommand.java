package dev.msgbench.cli.tune;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.ChildJvmCellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.jmh.JmhClassPath;
import dev.msgbench.cli.jmh.JmhLaunch;
import dev.msgbench.cli.jmh.ProjectClone;
import dev.msgbench.cli.measure.OutputFolder;
import dev.msgbench.cli.measure.PinningOptions;
import dev.msgbench.cli.workload.MeasuredLatency;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tune}: one e2e workload under a matrix of JDKs and JVM flag sets, each run in a fresh
 * child JVM (flags of the measuring JVM only take effect at its start), and one table that
 * compares them. The broker is the same kind in every cell; what changes is only our JVM.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs one e2e workload under each JDK x JVM flag set, each in a fresh JVM, and compares them.",
                "One table: latency percentiles and max, achieved rate, GC pauses, allocation rate and the load",
                "generator's own hiccups per flag set. Writes tune.txt, tune.html, tune.json and each child's results into --output.",
                "",
                "With --repeats N each flag set runs N times, interleaved (A B C A B C ...), and the table adds each set's "
                        + "median run and spread (lowest..highest run) per figure, and the latency of its runs' histograms "
                        + "added. With --baseline every other set gets a verdict per figure: better, worse or within noise, "
                        + "by a two-sided Mann-Whitney rank test over the runs (exact p, 5%%); that needs 4 runs a side "
                        + "(3 a side cannot reach 5%%: the smallest p is 0.1), so fewer repeats give the spread and "
                        + "\"no verdict\".",
                "",
                "Arguments after -- go to e2e (default: the E3 1 KiB workload, scaled: " + TuneCommand.DEFAULT_E2E_TEXT + ").",
                "",
                "With --jmh (beside the e2e cells) or --jmh-only (alone), from a clone of the project, JMH runs the "
                        + "benchmarks of the test sources once per JDK and flag set: Maven builds their class path once "
                        + "(mvn -o test-compile), then JMH's own runner forks each benchmark on the set's java (-jvm) with "
                        + "its flags (-jvmArgsAppend) and -prof gc. The default is bench-core's engine path, no broker: "
                        + "EnginePathBenchmark wholePath and producerToReceiver at 100 B and 1 KiB, -f 2 -wi 3 -w 500ms -i 5 "
                        + "-r 500ms, about 50 s per flag set plus about 20 s of build. A second table gives each benchmark's "
                        + "score +- its error (the half width of JMH's 99.9%% confidence interval) and bytes per op per "
                        + "set, and against --baseline: better or worse only when the two intervals do not overlap, else "
                        + "within noise (no verdict without error bars: JMH needs 3 measured iterations in all). "
                        + "--cpus pins JMH and its forks too. JMH runs once per set whatever --repeats says.",
                "",
                PinningOptions.WHY + " --broker-cpus and --cpus go to every child.",
                ""},
        footer = {"", "Examples:",
                "  tune",
                "  tune --broker-cpus 0 --cpus 1",
                "  tune --repeats 5 --sets G1,ZGC-gen --baseline G1 --broker-cpus 0 --cpus 1",
                "  tune --jmh --sets G1,Parallel --baseline G1",
                "  tune --jmh-only --sets G1,Parallel --jmh-include 'RecorderBenchmark' --jmh-args '-f 2 -i 5'",
                "  tune --sets G1,Parallel --flags 'small=-Xmx128m' -- --system kafka --rate 3000 --size 1KiB"})
public final class TuneCommand implements Callable<Integer> {

    static final List<String> DEFAULT_E2E = List.of("--system", "nats", "--rate", "3000", "--size", "1KiB",
            "--warmup", "5s", "--duration", "20s");
    static final String DEFAULT_E2E_TEXT = "--system nats --rate 3000 --size 1KiB --warmup 5s --duration 20s";
    static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Io io;

    @Spec
    CommandSpec spec;

    @Option(names = "--jdk", paramLabel = "HOME",
            description = "A JDK to run on (its home, or its bin/java); repeatable. Default: the running JDK, and "
                    + "/usr/lib/jvm/temurin-25-jdk-amd64 if present.")
    List<Path> jdks = new ArrayList<>();

    @Option(names = "--sets", split = ",", paramLabel = "NAME",
            description = "Which built-in flag sets to run (default: all): G1, Parallel, ZGC-gen (JDK 21+), "
                    + "G1-fixed-heap (-Xms=-Xmx 1g, AlwaysPreTouch), G1-compact-headers (JDK 25+); 'none' for only --flags.")
    List<String> sets;

    @Option(names = "--flags", paramLabel = "NAME=FLAGS",
            description = "A flag set of your own, e.g. 'small-heap=-Xmx128m -XX:+UseSerialGC'; repeatable.")
    List<String> userSets = new ArrayList<>();

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "1",
            description = "Runs of each flag set in all, as sweep's --repeats counts the runs of its knee: interleaved "
                    + "(A B C A B C ...) so that the machine's drift hits every set alike, each in a fresh JVM "
                    + "(default: ${DEFAULT-VALUE}). A verdict against --baseline needs 4.")
    int repeats;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "Compare every other set with this one, per figure: a flag set's name (on each JDK, against "
                    + "that JDK's run of it) or one cell, e.g. jdk17-G1.")
    String baseline;

    /** Passed on to every child's e2e: pinned apart, the flag sets' differences are not the broker's. */
    @Mixin
    PinningOptions pinning;

    @Mixin
    TuneJmhOptions jmh;

    @Option(names = "--output", paramLabel = "DIR", description = "Results folder (default: results/<timestamp>-tune).")
    Path output;

    @Option(names = "--child-timeout", paramLabel = "TIME", converter = TimeConverter.class,
            defaultValue = "10m", description = "Longest one child run may take before it is stopped (default: ${DEFAULT-VALUE}).")
    Duration childTimeout;

    @Parameters(paramLabel = "E2E_ARGS", description = "e2e arguments, after --.")
    List<String> e2eArgs = new ArrayList<>();

    public TuneCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        List<String> workload = e2eArgs.isEmpty() && !jmh.jmhOnly ? DEFAULT_E2E : e2eArgs;
        checkFlags(workload);
        // a clone and Maven are found before any cell runs: minutes of e2e must not end in "no clone"
        JmhPlace jmhPlace = jmh.any() ? JmhPlace.find(jmh.module()) : null;
        ParsedCell cell = jmh.jmhOnly ? null : CellCheck.parse(io, childArgs(workload));
        TuneMatrix matrix = TuneMatrix.expand(jdks(), flagSets());
        if (matrix.cells().isEmpty()) {
            throw new UserError("tune: no flag set applies to the given JDKs; check --sets, --flags and --jdk");
        }
        Map<String, String> bases = baseline == null ? Map.of() : TuneBaseline.of(baseline, matrix.cells());
        Path dir = (output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-tune"))
                .toAbsolutePath().normalize();
        OutputFolder.requireWritable(spec.commandLine(), dir);
        PrintWriter out = spec.commandLine().getOut();
        JmhLaunch launch = jmhPlace == null ? null : buildJmh(jmhPlace, dir, out);
        Cells cells = cell == null ? Cells.NONE : runCells(cell, matrix, dir, out);
        ExitCode exitCode = cells.exitCode();
        List<TuneJmhRun> jmhRuns = new ArrayList<>();
        if (launch != null && exitCode != ExitCode.INTERRUPTED && !runJmh(launch, matrix, dir, out, jmhRuns)) {
            exitCode = ExitCode.INTERRUPTED;
        }
        Tables tables = tables(cell != null, launch != null, cells, matrix, bases, jmhRuns);
        out.print(tables.all());
        out.println("results: " + dir);
        out.flush();
        write(dir, workload, tables, cells, matrix, bases, jmhRuns);
        return exitCode.code();
    }

    /** What tune prints and writes: all of it, and the sets' spread and the JMH table alone for tune.html. */
    private record Tables(String all, String spread, String jmh) {
    }

    private Tables tables(boolean e2e, boolean jmhRan, Cells cells, TuneMatrix matrix, Map<String, String> bases,
                          List<TuneJmhRun> jmhRuns) {
        StringWriter table = new StringWriter();
        if (e2e) {
            TuneTable.print(cells.rows(), repeats == 1 ? null : cells.runNumbers(), matrix.skipped(), new PrintWriter(table));
        }
        StringWriter spread = new StringWriter();
        if (e2e && (repeats > 1 || !bases.isEmpty())) {
            TuneSpreadTable.print(cells.sets(), bases, repeats, new PrintWriter(spread));
            table.append(spread.toString());
        }
        StringWriter jmhTable = new StringWriter();
        if (jmhRan) {
            TuneJmhTable.print(jmhRuns, bases, jmh.describe(), new PrintWriter(jmhTable));
            if (!e2e) {
                matrix.skipped().forEach(note -> jmhTable.append(note).append(System.lineSeparator()));
            }
            table.append(jmhTable.toString());
        }
        return new Tables(table.toString(), spread.toString(), jmhTable.toString());
    }

    /** Refusals that depend on the flags alone, before anything starts. */
    private void checkFlags(List<String> workload) {
        for (String arg : workload) {
            if (arg.equals("--output") || arg.startsWith("--output=")) {
                throw new UserError("tune: --output after -- is set per child; give --output before -- for the whole matrix");
            }
            for (String flag : List.of("--cpus", "--broker-cpus")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(flag)
                        && (arg.equals(flag) || arg.startsWith(flag + "="))) {
                    throw new UserError("tune: " + flag + " is given both before and after --; give it once");
                }
            }
        }
        jmh.check(!e2eArgs.isEmpty());
        if (pinning.any()) {
            CpuAffinity.requireTaskset(pinning.cpus != null ? Setting.CPUS : Setting.BROKER_CPUS);
        }
        if (repeats < 1) {
            throw new ParameterException(spec.commandLine(), "--repeats must be at least 1, got " + repeats);
        }
    }

    /** Where tune --jmh builds from: the clone, the benchmarks' module and Maven. */
    private record JmhPlace(ProjectClone project, String module, Path maven) {

        static JmhPlace find(String module) {
            ProjectClone clone = ProjectClone.locate(Path.of(""), ProjectClone.codeLocation());
            clone.module(module);
            return new JmhPlace(clone, module, JmhClassPath.maven());
        }
    }

    /** Builds the benchmarks' class path once, for every set's run. */
    private JmhLaunch buildJmh(JmhPlace place, Path dir, PrintWriter out) throws InterruptedException {
        out.printf("[jmh] building %s's benchmarks with Maven (log: %s)%n", place.module(), dir.resolve("jmh-build.log"));
        out.flush();
        List<Path> classPath = JmhClassPath.build(place.maven(), place.project(), place.module(), dir, childTimeout);
        return new JmhLaunch(classPath, jmh.include(), jmh.args(), pinning.cpus);
    }

    /** The e2e cells' rows, each run's number, each set's runs, and whether Ctrl+C cut them short. */
    private record Cells(List<TuneRow> rows, List<Integer> runNumbers, List<TuneSet> sets, ExitCode exitCode) {
        static final Cells NONE = new Cells(List.of(), List.of(), List.of(), ExitCode.OK);
    }

    /** Every (JDK, flag set) --repeats times, interleaved, each in a fresh child JVM. */
    private Cells runCells(ParsedCell cell, TuneMatrix matrix, Path dir, PrintWriter out) {
        List<TuneRow> rows = new ArrayList<>();
        List<Integer> runNumbers = new ArrayList<>();
        Map<String, List<TuneRow>> runsOf = new LinkedHashMap<>();
        Map<String, Histogram> added = new LinkedHashMap<>();
        matrix.cells().forEach(c -> {
            runsOf.put(c.id(), new ArrayList<>());
            added.put(c.id(), Recorders.newHistogram());
        });
        ExitCode exitCode = ExitCode.OK;
        int total = matrix.cells().size() * repeats;
        int i = 0;
        runs:
        for (int run = 1; run <= repeats; run++) {
            // interleaved, A B C A B C: a machine that drifts over the matrix's minutes moves every set alike
            for (TuneMatrix.Cell child : matrix.cells()) {
                List<String> flags = child.flags().flagsFor(child.jdk());
                out.printf("[%d/%d] %s %s%s: %s%n", ++i, total, child.jdk().label(), child.flags().name(),
                        repeats == 1 ? "" : " run " + run + "/" + repeats, String.join(" ", flags));
                out.flush();
                String name = repeats == 1 ? child.id() : child.id() + "/run-" + run;
                Path childDir = dir.resolve(name);
                Path log = dir.resolve(repeats == 1 ? child.id() + ".log" : child.id() + "-run-" + run + ".log");
                CellOutcome outcome = new ChildJvmCellRunner(child.jdk().java(), flags, log, childTimeout).run(cell, childDir);
                TuneRow row = outcome.result() == null
                        ? TuneRow.failed(child.jdk().label(), child.flags().name(), flags, outcome.error(), childDir.toString())
                        : TuneRow.of(child.jdk().label(), child.flags().name(), flags, outcome.result(), childDir);
                rows.add(row);
                runNumbers.add(run);
                runsOf.get(child.id()).add(row);
                if (outcome.result() != null && TuneSet.COMPLETE.equals(row.status())) {
                    MeasuredLatency.addTo(added.get(child.id()), childDir, outcome.result().workload().warmupSeconds());
                }
                if (outcome.exitCode() == ExitCode.INTERRUPTED) {
                    // Ctrl+C stops the matrix, as it stops run and sweep; the table shows what ran
                    exitCode = ExitCode.INTERRUPTED;
                    break runs;
                }
            }
        }
        List<TuneSet> sets = new ArrayList<>();
        for (TuneMatrix.Cell c : matrix.cells()) {
            sets.add(new TuneSet(c.id(), c.jdk().label(), c.flags().name(), c.flags().flagsFor(c.jdk()),
                    runsOf.get(c.id()), Percentiles.inMillis(added.get(c.id()))));
        }
        return new Cells(rows, runNumbers, sets, exitCode);
    }

    /**
     * JMH once per (JDK, flag set), whatever --repeats says: its forks and iterations are its
     * repeats, and its error bars their spread.
     *
     * @return false when Ctrl+C stopped it
     */
    private boolean runJmh(JmhLaunch launch, TuneMatrix matrix, Path dir, PrintWriter out, List<TuneJmhRun> runs) {
        int i = 0;
        for (TuneMatrix.Cell child : matrix.cells()) {
            List<String> flags = child.flags().flagsFor(child.jdk());
            out.printf("[jmh %d/%d] %s %s: %s%n", ++i, matrix.cells().size(), child.jdk().label(), child.flags().name(),
                    String.join(" ", flags));
            out.flush();
            Path log = dir.resolve("jmh-" + child.id() + ".log");
            JmhLaunch.Outcome outcome = launch.run(child.jdk().java(), flags, dir.resolve("jmh-" + child.id() + ".json"),
                    log, childTimeout, line -> {
                        out.println("  " + line);
                        out.flush();
                    });
            runs.add(new TuneJmhRun(child.id(), child.jdk().label(), child.flags().name(), flags, outcome.scores(),
                    outcome.error(), log.toString()));
            if (outcome.interrupted()) {
                return false;
            }
        }
        return true;
    }

    /** tune.txt, tune.html and tune.json; the e2e arguments may hold a --url with a password: the files are made to be shared. */
    private void write(Path dir, List<String> workload, Tables tables, Cells cells, TuneMatrix matrix,
                       Map<String, String> bases, List<TuneJmhRun> jmhRuns) throws IOException {
        String what = jmh.jmhOnly ? "jmh " + jmh.describe() : "e2e " + String.join(" ", workload);
        Files.writeString(dir.resolve("tune.txt"), Redaction.redactUrl(what + System.lineSeparator() + tables.all()),
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tune.html"), Redaction.redactUrl(TuneTable.html(cells.rows(), matrix.skipped(),
                String.join(" ", workload), tables.spread(), tables.jmh())), StandardCharsets.UTF_8);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("e2eArgs", workload);
        json.put("repeats", repeats);
        json.put("rows", cells.rows());
        json.put("sets", TuneJson.sets(cells.sets(), bases));
        json.put("skipped", matrix.skipped());
        if (jmh.any()) {
            json.put("jmh", TuneJmhTable.json(jmhRuns, bases, jmh));
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("tune.json").toFile(),
                Redaction.redact(json));
    }

    /** The e2e command line every child runs: the workload, and the pinning given before --. */
    private List<String> childArgs(List<String> workload) {
        List<String> args = new ArrayList<>(List.of("e2e"));
        args.addAll(workload);
        if (pinning.brokerCpus != null) {
            args.addAll(List.of("--broker-cpus", pinning.brokerCpus.toString()));
        }
        if (pinning.cpus != null) {
            args.addAll(List.of("--cpus", pinning.cpus.toString()));
        }
        return args;
    }

    private List<Jdk> jdks() {
        List<Jdk> list = new ArrayList<>();
        if (jdks.isEmpty()) {
            list.add(Jdk.current());
            if (Files.isRegularFile(TEMURIN_25.resolve("release"))
                    && !TEMURIN_25.toAbsolutePath().equals(Path.of(System.getProperty("java.home")).toAbsolutePath())) {
                list.add(Jdk.at(TEMURIN_25));
            }
            return list;
        }
        jdks.forEach(p -> list.add(Jdk.at(p)));
        return list;
    }

    private List<FlagSet> flagSets() {
        List<FlagSet> all = new ArrayList<>();
        List<FlagSet> defaults = FlagSet.defaults();
        if (sets == null) {
            all.addAll(defaults);
        } else if (!(sets.size() == 1 && sets.get(0).equals("none"))) {
            for (String name : sets) {
                all.add(defaults.stream().filter(s -> s.name().equalsIgnoreCase(name)).findFirst().orElseThrow(() ->
                        new UserError("--sets " + name + ": no such flag set; choose from G1, Parallel, ZGC-gen, "
                                + "G1-fixed-heap, G1-compact-headers, or give your own with --flags")));
            }
        }
        userSets.forEach(s -> all.add(FlagSet.parse(s)));
        return all;
    }
}
