package dev.msgbench.cli.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.core.UserError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jmh-compare A B}: each benchmark's score in two JMH runs, their ratio, and whether it is noise. */
@Command(name = "jmh-compare", mixinStandardHelpOptions = true,
        description = {"Compares two JMH JSON result files, e.g. a committed baseline and a latest run.",
                "For each benchmark and parameter set: both scores with their error bars, the ratio B/A, and",
                "\"within noise\" when the two error intervals overlap."},
        footer = {"", "Example:", "  jmh-compare jmh-results/baseline-bench-core-jdk17.json jmh-results/latest-bench-core-jdk17.json"})
public final class JmhCompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "the reference run (JMH JSON)")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "the run to compare with it (JMH JSON)")
    Path b;

    @Override
    public Integer call() {
        for (Path file : new Path[] {a, b}) {
            if (!Files.isRegularFile(file)) {
                throw new UserError("jmh-compare: no file " + file + "; give two JMH JSON files (mvn verify -Pbench writes them to jmh-results/)");
            }
        }
        JmhComparison.print(JmhComparison.compare(JmhResults.read(a), JmhResults.read(b)), a.toString(), b.toString(),
                spec.commandLine().getOut());
        return ExitCode.OK.code();
    }
}
