package dev.msgbench.cli.tune;

import java.util.Arrays;
import java.util.List;

import dev.msgbench.cli.jmh.JmhLaunch;
import dev.msgbench.core.UserError;
import picocli.CommandLine.Option;

/** tune's JMH flags: whether the JMH benchmarks run per flag set, which, and with which settings. */
public final class TuneJmhOptions {

    /** The engine's path of one message and of a whole run: no broker, and about 50 s per flag set. */
    static final String DEFAULT_INCLUDE = "EnginePathBenchmark\\.(wholePath|producerToReceiver)$";
    /**
     * Ten measured iterations from two forks: JMH's 99.9% interval uses Student's t, which for the
     * 3 iterations of one fork is 31.6 standard errors wide each side (2 degrees of freedom) and
     * calls everything within noise; for 10 it is 4.8.
     */
    static final String DEFAULT_ARGS = "-f 2 -wi 3 -w 500ms -i 5 -r 500ms";
    static final String DEFAULT_MODULE = "bench-core";

    @Option(names = "--jmh", description = "Also run JMH benchmarks under each JDK and flag set (JMH's own forks "
            + "with -jvm and -jvmArgsAppend) and print their scores with error bars beside the e2e figures, with a "
            + "verdict against --baseline. From a clone only (the benchmarks are test sources; Maven builds them "
            + "once). Default: bench-core's engine path (EnginePathBenchmark wholePath and producerToReceiver, "
            + "2 sizes each, no broker): about 50 s per flag set, plus the build.")
    boolean jmh;

    @Option(names = "--jmh-only", description = "Run only the JMH benchmarks per JDK and flag set, no e2e cells.")
    boolean jmhOnly;

    @Option(names = "--jmh-include", paramLabel = "REGEX",
            description = "Which benchmarks, JMH's regular expression (default: " + DEFAULT_INCLUDE + ").")
    String include;

    @Option(names = "--jmh-args", paramLabel = "ARGS",
            description = "JMH's settings for each set's run, one string (default: '" + DEFAULT_ARGS + "'); tune sets "
                    + "-jvm, -jvmArgsAppend, -rf and -rff itself, and adds -prof gc.")
    String args;

    @Option(names = "--jmh-module", paramLabel = "MODULE",
            description = "The module whose test sources hold the benchmarks (default: " + DEFAULT_MODULE + "); "
                    + "bench-kafka, bench-nats, bench-rabbit and bench-redis hold client publish benchmarks that start "
                    + "their own local broker.")
    String module;

    boolean any() {
        return jmh || jmhOnly;
    }

    String include() {
        return include != null ? include : DEFAULT_INCLUDE;
    }

    List<String> args() {
        String given = args != null ? args : DEFAULT_ARGS;
        return given.isBlank() ? List.of() : Arrays.asList(given.trim().split("\\s+"));
    }

    String module() {
        return module != null ? module : DEFAULT_MODULE;
    }

    /**
     * Refuses what depends on these flags alone, before anything runs.
     *
     * @param e2eArgsGiven whether e2e arguments follow --
     */
    void check(boolean e2eArgsGiven) {
        if (!any()) {
            for (String[] given : new String[][] {{"--jmh-include", include}, {"--jmh-args", args}, {"--jmh-module", module}}) {
                if (given[1] != null) {
                    throw new UserError("tune: " + given[0] + " applies with --jmh or --jmh-only only; add one of them");
                }
            }
            return;
        }
        if (jmhOnly && e2eArgsGiven) {
            throw new UserError("tune: --jmh-only runs no e2e cells, so takes no e2e arguments after --; drop them, "
                    + "or give --jmh to run both");
        }
        for (String arg : args()) {
            if (JmhLaunch.OWN_OPTIONS.contains(arg)) {
                throw new UserError("tune: --jmh-args holds " + arg + ", which tune sets per flag set (-jvm, "
                        + "-jvmArgsAppend, -rf json, -rff); leave it out");
            }
        }
    }

    /** What a run is: the module, the benchmarks and JMH's settings, as the table and tune.json say it. */
    String describe() {
        return module() + " " + include() + " " + String.join(" ", args());
    }
}
