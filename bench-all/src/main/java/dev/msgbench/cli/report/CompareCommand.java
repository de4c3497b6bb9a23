package dev.msgbench.cli.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Two results side by side, failing when NEW is worse than BASE.",
                "",
                "Prints BASE and NEW side by side (rates, each percentile, max, lost) with NEW/BASE, and exits "
                        + "with 3 when NEW is worse than BASE beyond a --max-regression "
                        + "limit, so that a CI job can guard performance. A folder holding several runs (repeats) "
                        + "counts as one side: their histograms are added, never their percentiles averaged. When "
                        + "either side holds repeats, each figure also gets a verdict over the runs' own values: "
                        + "better, worse or within noise by a two-sided Mann-Whitney rank test (exact p, 5%%), which "
                        + "needs 4 runs a side; fewer give \"no verdict\". The verdicts do not change the exit code.",
                ""},
        // the numbers of ExitCode.OK, REGRESSED and USAGE (an annotation takes only constants)
        footer = {"", "Exit codes: 0 no regression beyond the limits, 3 regression, 2 bad input.", "", "Examples:",
                "  compare results/base results/new --max-regression p99.9=10%%",
                "  compare base new --max-regression p99=5%% --max-regression received-rate=2%% --max-regression lost=0"})
public final class CompareCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(index = "0", paramLabel = "BASE", description = "The reference: a results folder, or a folder of repeats.")
    Path base;

    @Parameters(index = "1", paramLabel = "NEW", description = "The candidate, as BASE.")
    Path next;

    @Option(names = "--max-regression", paramLabel = "METRIC=LIMIT",
            description = "How much worse NEW may be (repeatable): p50..p99.9999, max or mean may rise by LIMIT%%;"
                    + " sent-rate or received-rate may fall by LIMIT%%; lost=N allows N more lost messages.")
    List<String> limits = new ArrayList<>();

    public CompareCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Map<String, Regression> byMetric = Regression.byMetric(limits);
        CompareSide baseSide = CompareSide.of(base.toString(), RunFolder.find(List.of(base), "compare BASE"));
        CompareSide nextSide = CompareSide.of(next.toString(), RunFolder.find(List.of(next), "compare NEW"));
        io.out().print(CompareTable.render(baseSide, nextSide));
        CompareVerdicts.lines(baseSide, nextSide).forEach(io.out()::println);
        EnvironmentDifferences.lines(baseSide.environments(), nextSide.environments()).forEach(io.out()::println);
        List<String> violations = new ArrayList<>();
        for (Regression limit : byMetric.values()) {
            String violation = limit.violation(baseSide, nextSide);
            if (violation != null) {
                violations.add(violation);
            }
        }
        if (violations.isEmpty()) {
            io.out().println(byMetric.isEmpty() ? "no limits given (--max-regression): nothing checked"
                    : "ok: no regression beyond " + String.join(", ", limits));
            return ExitCode.OK.code();
        }
        for (String v : violations) {
            io.out().println("REGRESSION: " + v);
        }
        return ExitCode.REGRESSED.code();
    }
}
