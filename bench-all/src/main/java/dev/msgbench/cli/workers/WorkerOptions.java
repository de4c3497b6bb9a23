package dev.msgbench.cli.workers;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.units.Durations;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** One of several load generators (--workers), and when its schedule starts (--start-at). */
public final class WorkerOptions {

    /** What Kubernetes sets in each pod of an Indexed Job: 0 to completions - 1. */
    public static final String INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** How far in the past --start-at may be when checked, and how late a worker may be ready for it. */
    static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    static final List<String> HELP = List.of(
            "Many load generators: --workers N runs this process as one of N workers, each started with the same "
                    + "flags and its own --worker-index (or " + INDEX_ENV + ", as a Kubernetes Indexed Job sets it). "
                    + "--producers, --consumers, --rate and --messages are the totals of all workers: the producer "
                    + "streams and consumers are dealt out as evenly as possible (the first workers take one more), "
                    + "each stream keeps its place in the one schedule of all streams (so each worker sends "
                    + "--rate x its streams / --producers), and each worker consumes exactly the streams it "
                    + "produces, on destinations of its own. Each writes --output DIR/worker-I; merge adds them up.");

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "N",
            description = "Run as one of N load generators splitting --producers, --consumers and --rate (totals); "
                    + "see Many load generators below.")
    public Integer workers;

    @Option(names = "--worker-index", paramLabel = "I",
            description = "This worker's index, 0 to N-1 (default: the environment variable " + INDEX_ENV + ").")
    Integer workerIndex;

    @Option(names = "--start-at", paramLabel = "TIME",
            description = "Connect and subscribe, then start the schedule (warm-up first) at this wall-clock "
                    + "instant: 2026-11-24T10:00:00Z, or +30s from now. Give every worker the same instant.")
    String startAt;

    /**
     * The split this process runs, checked; {@link WorkerPlan#SINGLE} without --workers.
     *
     * @param indexFromEnvironment the value of {@link #INDEX_ENV}, or null when it is not set
     * @param total                the schedule of all workers together
     */
    public WorkerPlan plan(int producers, int consumers, Pacing total, String indexFromEnvironment) {
        Instant start = startAt == null ? null : startInstant(startAt, Instant.now());
        if (workers == null) {
            if (workerIndex != null) {
                throw error("--worker-index needs --workers, the number of workers it is one of");
            }
            return start == null ? WorkerPlan.SINGLE : WorkerPlan.notSplit(start);
        }
        if (workers < 1) {
            throw error("--workers must be at least 1, got " + workers);
        }
        int index = index(workers, workerIndex, indexFromEnvironment);
        if (producers < workers) {
            throw error("--producers " + producers + " cannot be split over --workers " + workers
                    + ": each worker needs a producer stream; give at least " + workers);
        }
        if (consumers > 0 && consumers < workers) {
            throw error("--consumers " + consumers + " cannot be split over --workers " + workers
                    + ": each worker consumes what it produces, with a consumer of its own; give at least " + workers);
        }
        if (total instanceof Pacing.FixedRate fixed && fixed.autoWarmup()) {
            throw error("--warmup auto cannot be used with --workers: each worker would end its warm-up at its own "
                    + "time; give a fixed --warmup");
        }
        return WorkerPlan.of(index, workers, producers, consumers, total, start);
    }

    /** The index from the flag, else from the environment, checked against the number of workers. */
    public int index(int count, Integer flag, String fromEnvironment) {
        String source = "--worker-index";
        int index;
        if (flag != null) {
            index = flag;
        } else if (fromEnvironment != null) {
            source = INDEX_ENV;
            try {
                index = Integer.parseInt(fromEnvironment.trim());
            } catch (NumberFormatException e) {
                throw error(INDEX_ENV + " must be a whole number (this worker's index, 0 to " + (count - 1)
                        + "), got '" + fromEnvironment + "'");
            }
        } else {
            throw error("--workers " + count + " needs this worker's --worker-index (or " + INDEX_ENV
                    + ", as a Kubernetes Indexed Job sets it)");
        }
        if (index < 0 || index >= count) {
            throw error(source + " must be from 0 to " + (count - 1) + " (--workers " + count + "), got " + index);
        }
        return index;
    }

    /** An ISO-8601 instant, or +TIME from {@code now}; at most {@link #START_TOLERANCE} in the past. */
    public Instant startInstant(String text, Instant now) {
        Instant at;
        if (text.startsWith("+")) {
            try {
                at = now.plus(Durations.parse(text.substring(1)));
            } catch (IllegalArgumentException e) {
                throw error("--start-at must be an instant such as 2026-11-24T10:00:00Z or a time from now such as "
                        + "+30s, got '" + text + "'");
            }
        } else {
            try {
                at = Instant.parse(text);
            } catch (DateTimeParseException e) {
                throw error("--start-at must be an instant such as 2026-11-24T10:00:00Z (UTC, or with an offset "
                        + "written as Z) or a time from now such as +30s, got '" + text + "'");
            }
        }
        Duration past = Duration.between(at, now);
        if (past.compareTo(START_TOLERANCE) > 0) {
            throw error(String.format(Locale.US, "--start-at %s is %.1f s in the past; give a later instant, "
                    + "leaving the workers time to start and connect", text, past.toMillis() / 1e3));
        }
        return at;
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
