package dev.msgbench.cli.tune;

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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ChildJvmCellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.measure.PinningOptions;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
                "Arguments after -- go to e2e (default: the E3 1 KiB workload, scaled: " + TuneCommand.DEFAULT_E2E_TEXT + ").",
                "",
                PinningOptions.WHY + " --broker-cpus and --cpus go to every child."},
        footer = {"", "Examples:",
                "  java -jar bench-all.jar tune",
                "  java -jar bench-all.jar tune --broker-cpus 0 --cpus 1",
                "  java -jar bench-all.jar tune --sets G1,Parallel --flags 'small=-Xmx128m' -- --system kafka --rate 3000 --size 1KiB"})
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

    /** Passed on to every child's e2e: pinned apart, the flag sets' differences are not the broker's. */
    @Mixin
    PinningOptions pinning;

    @Option(names = "--output", paramLabel = "DIR", description = "Results folder (default: results/<timestamp>-tune).")
    Path output;

    @Option(names = "--child-timeout", paramLabel = "DURATION", converter = TimeConverter.class,
            defaultValue = "10m", description = "Longest one child run may take before it is stopped (default: ${DEFAULT-VALUE}).")
    Duration childTimeout;

    @Parameters(paramLabel = "E2E_ARGS", description = "e2e arguments, after --.")
    List<String> e2eArgs = new ArrayList<>();

    public TuneCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        List<String> workload = e2eArgs.isEmpty() ? DEFAULT_E2E : e2eArgs;
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
        if (pinning.any()) {
            CpuAffinity.requireTaskset(pinning.cpus != null ? Setting.CPUS : Setting.BROKER_CPUS);
        }
        ParsedCell cell = CellCheck.parse(io, childArgs(workload));
        TuneMatrix matrix = TuneMatrix.expand(jdks(), flagSets());
        if (matrix.cells().isEmpty()) {
            throw new UserError("tune: no flag set applies to the given JDKs; check --sets, --flags and --jdk");
        }
        Path dir = (output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-tune"))
                .toAbsolutePath().normalize();
        Files.createDirectories(dir);
        PrintWriter out = spec.commandLine().getOut();
        List<TuneRow> rows = new ArrayList<>();
        ExitCode exitCode = ExitCode.OK;
        int i = 0;
        for (TuneMatrix.Cell child : matrix.cells()) {
            List<String> flags = child.flags().flagsFor(child.jdk());
            out.printf("[%d/%d] %s %s: %s%n", ++i, matrix.cells().size(), child.jdk().label(), child.flags().name(),
                    String.join(" ", flags));
            out.flush();
            Path childDir = dir.resolve(child.id());
            CellRunner runner = new ChildJvmCellRunner(child.jdk().java(), flags, dir.resolve(child.id() + ".log"),
                    childTimeout);
            CellOutcome outcome = runner.run(cell, childDir);
            rows.add(outcome.result() == null
                    ? TuneRow.failed(child.jdk().label(), child.flags().name(), flags, outcome.error(), childDir.toString())
                    : TuneRow.of(child.jdk().label(), child.flags().name(), flags, outcome.result(), childDir));
            if (outcome.exitCode() == ExitCode.INTERRUPTED) {
                // Ctrl+C stops the matrix, as it stops run and sweep; the table shows what ran
                exitCode = ExitCode.INTERRUPTED;
                break;
            }
        }
        StringWriter table = new StringWriter();
        TuneTable.print(rows, matrix.skipped(), new PrintWriter(table));
        out.print(table);
        out.println("results: " + dir);
        out.flush();
        // the e2e arguments may hold a --url with a password: the files are made to be shared
        Files.writeString(dir.resolve("tune.txt"), Redaction.redactUrl("e2e " + String.join(" ", workload)
                + System.lineSeparator() + table), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tune.html"), Redaction.redactUrl(TuneTable.html(rows, matrix.skipped(),
                String.join(" ", workload))), StandardCharsets.UTF_8);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("e2eArgs", workload);
        json.put("rows", rows);
        json.put("skipped", matrix.skipped());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("tune.json").toFile(),
                Redaction.redact(json));
        return exitCode.code();
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
