package dev.msgbench.cli.measure;

import java.time.Duration;
import java.util.Locale;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.Limits;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.time.RateSchedule;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --rate-schedule}: a target rate that changes over the measured time, in place of
 * {@code --rate} and {@code --duration}. The schedule is the measured part; the warm-up runs
 * before it at the schedule's first rate, so that the system is warm at the level the
 * measurement starts from.
 */
public final class RateScheduleOptions {

    private static final String GRAMMAR = "Parts separated by commas: 'RATE/s for TIME' (a step), 'RATE/s to RATE/s over TIME' "
            + "(a linear ramp), 'N x (PARTS)' (the parts N times in a row); RATE 0 pauses.";

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--rate-schedule", paramLabel = "SCHEDULE", converter = Converters.Schedule.class,
            description = {"A target rate that changes over time, still open loop: every intended send time comes "
                    + "from the schedule. Replaces --rate and --duration (the schedule is the measured time; "
                    + "--warmup runs before it at its first rate, and must be a fixed time). Rates are totals of all "
                    + "producers, as --rate. " + GRAMMAR,
                    "e.g. '1000/s for 30s, 5000/s for 10s, 1000/s for 60s', '1000/s to 5000/s over 30s', "
                    + "'1000/s for 10s, 3 x (20000/s for 2s, 1000/s for 8s)'."})
    RateSchedule schedule;

    boolean given() {
        return schedule != null;
    }

    /** The schedule with the warm-up and arrivals of {@code load}; refuses the flags it replaces. */
    Pacing.FixedRate pacing(LoadOptions load, int producers) {
        for (String replaced : new String[] {"--rate", "--duration"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(replaced)) {
                throw error("--rate-schedule sets the rate and the measured time; give either " + replaced
                        + " or --rate-schedule, not both");
            }
        }
        if (load.warmup.auto()) {
            throw error("--rate-schedule needs a fixed --warmup (it runs at the schedule's first rate), got --warmup "
                    + load.warmup.text());
        }
        if (schedule.peakRateMsgsPerSec() / producers > Limits.MAX_RATE_PER_PRODUCER) {
            throw error(String.format(Locale.US, "--rate-schedule cannot be kept: at most %,.0f msg/s per producer, "
                    + "got a peak of %,.0f msg/s for %d producer%s; lower the schedule or add --producers",
                    Limits.MAX_RATE_PER_PRODUCER, schedule.peakRateMsgsPerSec(), producers, producers == 1 ? "" : "s"));
        }
        if (schedule.totalMessages() < producers) {
            throw error("--rate-schedule '" + schedule.spec() + "' gives each of the " + producers
                    + " producers less than one message; raise its rates or times");
        }
        Limits.requireTimeAtMost(spec, "--warmup", load.warmup.length(), Limits.MAX_TIME);
        if (schedule.durationNanos() + load.warmup.length().toNanos() > Limits.MAX_TIME.toNanos()) {
            throw error("--warmup plus --rate-schedule must last at most " + Limits.human(Limits.MAX_TIME) + ", got "
                    + Limits.given(spec, "--warmup", load.warmup.length()) + " + "
                    + Limits.human(Duration.ofNanos(schedule.durationNanos())));
        }
        return Pacing.FixedRate.scheduled(schedule, load.arrival, load.warmup.length());
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
