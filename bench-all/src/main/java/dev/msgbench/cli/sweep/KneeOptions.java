package dev.msgbench.cli.sweep;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** How far a sweep trusts one run: warm-up, repeats of a miss, the bisection's resolution. */
public final class KneeOptions {

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
            description = "Runs of a step that misses, and of the knee, at most (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--must-pass", paramLabel = "M", defaultValue = "2",
            description = "Of those runs, how many must pass (default: ${DEFAULT-VALUE}: 2 of 3).")
    int mustPass;

    @Option(names = "--resolution", paramLabel = "PCT%|MSGS_PER_SEC", defaultValue = "5%",
            converter = RateResolution.Converter.class,
            description = "Bisect between the last passing rate and the first missing one until they are this close: a "
                    + "share of the passing rate (5%%) or msg/s (500) (default: ${DEFAULT-VALUE}).")
    RateResolution resolution;

    @Option(names = "--warm-up-runs", paramLabel = "N", defaultValue = "1",
            description = "Runs at the start rate before the first step, not judged: a cold first run misses more "
                    + "than the rate deserves (default: ${DEFAULT-VALUE}).")
    int warmUpRuns;

    @Option(names = "--dry-run", description = "Check the flags and say the plan (the most runs and time), running nothing.")
    boolean dryRun;

    void check(CommandSpec spec) {
        if (repeats < 1) {
            throw new ParameterException(spec.commandLine(), "--repeats must be at least 1, got " + repeats);
        }
        if (mustPass < 1 || mustPass > repeats) {
            throw new ParameterException(spec.commandLine(), "--must-pass must be from 1 to --repeats (" + repeats
                    + "), got " + mustPass);
        }
        if (warmUpRuns < 0) {
            throw new ParameterException(spec.commandLine(), "--warm-up-runs must be 0 or more, got " + warmUpRuns);
        }
    }
}
