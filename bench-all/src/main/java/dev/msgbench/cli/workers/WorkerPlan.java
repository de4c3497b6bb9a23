package dev.msgbench.cli.workers;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.run.StartAt;
import dev.msgbench.core.run.WorkerRole;
import dev.msgbench.core.security.Secrets;

/**
 * What this process runs of a run split over {@code count} workers (--workers), and when it
 * starts (--start-at). Producer streams and consumers are dealt out as evenly as possible, the
 * first workers taking one more: worker {@code index} runs streams {@code firstStream} to
 * {@code firstStream + producers - 1} of {@code totalProducers}.
 *
 * @param worker  --workers was given: this process is a worker, even the only one
 * @param startAt --start-at, or null to start as soon as connected
 */
public record WorkerPlan(boolean worker, int index, int count, int producers, int consumers, int firstStream,
                  int totalProducers, int totalConsumers, Pacing total, Instant startAt) {

    /** Not split, started when ready: the run as it always was. */
    public static final WorkerPlan SINGLE = new WorkerPlan(false, 0, 1, 0, 0, 0, 0, 0, null, null);

    /** The folder of worker I below the --output of all workers. */
    static final String FOLDER_PREFIX = "worker-";

    static WorkerPlan notSplit(Instant startAt) {
        return new WorkerPlan(false, 0, 1, 0, 0, 0, 0, 0, null, startAt);
    }

    public static WorkerPlan of(int index, int count, int totalProducers, int totalConsumers, Pacing total, Instant startAt) {
        return new WorkerPlan(true, index, count, share(totalProducers, count, index), share(totalConsumers, count, index),
                index * (totalProducers / count) + Math.min(index, totalProducers % count), totalProducers,
                totalConsumers, total, startAt);
    }

    /** The items of {@code total} that worker {@code index} of {@code count} takes. */
    public static int share(int total, int count, int index) {
        return total / count + (index < total % count ? 1 : 0);
    }

    public int producers(int total) {
        return worker ? producers : total;
    }

    public int consumers(int total) {
        return worker ? consumers : total;
    }

    /**
     * This worker's part of the schedule: its streams' share of the rate (each stream keeps the
     * rate it has among all of them), or of the messages (each stream the count it would have).
     */
    public Pacing share() {
        if (total instanceof Pacing.FixedRate fixed) {
            return new Pacing.FixedRate(fixed.rateMsgsPerSec() * producers / totalProducers, fixed.arrival(),
                    fixed.warmup(), fixed.duration(), fixed.autoWarmup(),
                    fixed.schedule() == null ? null : fixed.schedule().scaled((double) producers / totalProducers));
        }
        Pacing.Unpaced unpaced = (Pacing.Unpaced) total;
        // each worker warms its own JVM, with its streams' share of the warm-up
        long warmup = unpaced.warmupMessages() == 0 ? 0
                : Math.max(1, unpaced.warmupMessages() * producers / totalProducers);
        if (unpaced.messages() == Pacing.Unpaced.UNTIL_TIME_LIMIT) {
            return new Pacing.Unpaced(unpaced.messages(), unpaced.maxOutstanding(), unpaced.timeLimit(),
                    unpaced.consumeAfterProduce(), warmup);
        }
        long perStream = unpaced.messages() / totalProducers;
        long remainder = unpaced.messages() % totalProducers;
        // the streams below the remainder take one more, as in one process running them all
        long extra = Math.max(0, Math.min(firstStream + producers, remainder) - firstStream);
        return new Pacing.Unpaced(perStream * producers + extra, unpaced.maxOutstanding(), unpaced.timeLimit(),
                unpaced.consumeAfterProduce(), warmup);
    }

    /** This worker's part of a --backlog: its streams' share of it, as of the rate. */
    public Backlog share(Backlog backlog) {
        return worker ? backlog.scaled((double) producers / totalProducers) : backlog;
    }

    /** Where this worker writes: DIR/worker-I below the --output all workers are given. */
    public Path folder(Path output) {
        return worker ? output.resolve(FOLDER_PREFIX + index) : output;
    }

    /**
     * The run described as the part it is, and when to start.
     *
     * @param args      the worker's command line, recorded so that merge can tell workers of one run
     * @param clockSync how this host's clock is synchronised, read only when there is a start time
     */
    public RunSpec applyTo(RunSpec run, List<String> args, Supplier<Map<String, Object>> clockSync) {
        RunSpec described = run;
        if (worker) {
            Map<String, Object> recorded = new LinkedHashMap<>();
            recorded.put("producers", producers);
            recorded.put("consumers", consumers);
            recorded.put("totalProducers", totalProducers);
            recorded.put("totalConsumers", totalConsumers);
            if (total instanceof Pacing.FixedRate fixed) {
                recorded.put("totalRateMsgsPerSec", fixed.rateMsgsPerSec());
                if (fixed.schedule() != null) {
                    recorded.put("totalRateSchedule", fixed.schedule().spec());
                }
            } else if (((Pacing.Unpaced) total).messages() != Pacing.Unpaced.UNTIL_TIME_LIMIT) {
                recorded.put("totalMessages", ((Pacing.Unpaced) total).messages());
            }
            recorded.put("args", argsOfAllWorkers(args));
            described = described.withWorker(new WorkerRole(index, count, firstStream, totalProducers, recorded));
        }
        if (startAt != null) {
            described = described.withStartAt(new StartAt(startAt, WorkerOptions.START_TOLERANCE, clockSync.get()));
        }
        return described;
    }

    /**
     * The command line every worker was given: without this one's --worker-index, nor --output,
     * which workers on different hosts may give differently, and no password shown.
     */
    static List<String> argsOfAllWorkers(List<String> args) {
        List<String> common = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--worker-index") || arg.equals("--output")) {
                i++;
            } else if (!arg.startsWith("--worker-index=") && !arg.startsWith("--output=")) {
                common.add(Secrets.scrub(arg));
            }
        }
        return common;
    }
}
