package dev.msgbench.cli.measure;

import java.time.Duration;
import java.util.Locale;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.Limits;
import dev.msgbench.cli.workload.WarmupSpec;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.core.time.Arrival;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The schedule of a latency run: rate, arrivals, warm-up and measured time. */
public final class LoadOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--rate", paramLabel = "MSGS_PER_SEC", defaultValue = "1000",
            description = "Target rate of all producers together, messages per second (default: ${DEFAULT-VALUE}). "
                    + "At most 10,000,000 per producer: a schedule finer than one send every 100 ns cannot be kept.")
    double rate;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "10s", converter = TimeConverter.class,
            description = "Measured time after the warm-up: 30s, 2m, 1h (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME|auto[:MAX]", defaultValue = "2s", converter = Converters.Warmup.class,
            description = {"Warm-up before the measured time; sent on the same schedule, left out of the results "
                    + "(default: ${DEFAULT-VALUE}, so that a single run takes a predictable time).",
                    "auto: warm up until the per-second latency, rate and backlog have settled (two steady 5 s windows "
                    + "at one level), at most 60 s (auto:MAX: at most MAX, from 11s); then measure --duration. "
                    + "Recommended: a fresh broker may take seconds to settle (the default for workload files)."})
    WarmupSpec warmup;

    @Option(names = "--arrival", paramLabel = "PROCESS", defaultValue = "uniform",
            description = "Spacing of intended send times: uniform (fixed rate) or poisson (default: ${DEFAULT-VALUE}).")
    Arrival arrival;

    Pacing.FixedRate pacing(int producers) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw error("--rate must be a positive number of messages per second, got " + fmt(rate));
        }
        if (rate / producers > Limits.MAX_RATE_PER_PRODUCER) {
            throw error(String.format(Locale.US, "--rate cannot be scheduled: at most %,.0f msg/s per producer "
                    + "(one send every %d ns), got %s for %d producer%s; lower --rate or add --producers",
                    Limits.MAX_RATE_PER_PRODUCER, Limits.MIN_SEND_INTERVAL_NANOS, fmt(rate), producers,
                    producers == 1 ? "" : "s"));
        }
        if (duration.isZero() || duration.isNegative()) {
            throw error("--duration must be longer than 0, got " + duration.toMillis() + " ms");
        }
        Limits.requireTimeAtMost(spec, "--duration", duration, Limits.MAX_TIME);
        Limits.requireTimeAtMost(spec, "--warmup", warmup.length(), Limits.MAX_TIME);
        if (warmup.length().plus(duration).compareTo(Limits.MAX_TIME) > 0) {
            throw error("--warmup plus --duration must be at most " + Limits.human(Limits.MAX_TIME) + ", got "
                    + Limits.given(spec, "--warmup", warmup.length()) + " + " + Limits.given(spec, "--duration", duration));
        }
        if (rate * (duration.toNanos() + warmup.length().toNanos()) / 1e9 < producers) {
            throw error("--rate " + fmt(rate) + " for " + duration.toMillis() + " ms gives each of the " + producers
                    + " producers less than one message; raise --rate or --duration");
        }
        return warmup.pacing(rate, arrival, duration);
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static String fmt(double v) {
        // a whole number as typed; beyond 10^15 a double has no exact digits to show
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
