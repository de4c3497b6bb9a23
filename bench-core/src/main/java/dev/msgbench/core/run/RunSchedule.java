package dev.msgbench.core.run;

import dev.msgbench.core.time.RateSchedule;

/**
 * When the run's window opens and closes, and each producer stream's share of the schedule:
 * with {@code --workers}, the stream's place in the one schedule of all workers' streams.
 *
 * @param worker this process's part of a run split over several load generators, or null
 */
record RunSchedule(RunSpec config, WorkerRole worker) {

RunWindow window(long start) {
    if (config.pacing() instanceof Pacing.FixedRate fixed && fixed.autoWarmup()) {
        return RunWindow.open(start, fixed.warmup().toNanos(), fixed.duration().toNanos());
    }
    if (config.pacing() instanceof Pacing.FixedRate) {
        Pacing.FixedRate fixed = (Pacing.FixedRate) config.pacing();
        long measureStart = start + fixed.warmup().toNanos();
        return new RunWindow(start, measureStart, measureStart + fixed.duration().toNanos());
    }
    Pacing.Unpaced unpaced = (Pacing.Unpaced) config.pacing();
    return new RunWindow(start, start, start + unpaced.timeLimit().toNanos());
}

StreamPlan plan(int stream, RunWindow window) {
    if (config.pacing() instanceof Pacing.FixedRate) {
        Pacing.FixedRate fixed = (Pacing.FixedRate) config.pacing();
        if (fixed.schedule() != null) {
            RateSchedule rates = fixed.schedule().afterLead(fixed.warmup().toNanos());
            int stream0 = stream;
            int streams = config.producers();
            if (worker != null) {
                // this worker's share scaled back to the total of all workers' streams, as below
                rates = rates.scaled((double) worker.totalStreams() / config.producers());
                stream0 = worker.firstStream() + stream;
                streams = worker.totalStreams();
            }
            return StreamPlan.fixed(fixed.arrival().schedule(window.startNanos(), rates, stream0, streams,
                    config.seed()), window);
        }
        if (worker != null) {
            // the stream's place in the schedule of all workers' streams: together they send it exactly
            double totalRate = fixed.rateMsgsPerSec() / config.producers() * worker.totalStreams();
            return StreamPlan.fixed(fixed.arrival().schedule(window.startNanos(), totalRate,
                    worker.firstStream() + stream, worker.totalStreams(), config.seed()), window);
        }
        return StreamPlan.fixed(fixed.arrival().schedule(window.startNanos(), fixed.rateMsgsPerSec(), stream,
                config.producers(), config.seed()), window);
    }
    long total = ((Pacing.Unpaced) config.pacing()).messages();
    // the first streams take one more when the count does not divide evenly
    // (a run limited by time alone has no count: each stream sends until the time is up)
    long share = total == Pacing.Unpaced.UNTIL_TIME_LIMIT ? total
            : total / config.producers() + (stream < total % config.producers() ? 1 : 0);
    return StreamPlan.unpaced(share, window.startNanos(), window.endNanos());
}
}
