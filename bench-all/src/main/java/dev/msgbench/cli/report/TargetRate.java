package dev.msgbench.cli.report;

import dev.msgbench.core.result.Workload;
import dev.msgbench.core.time.RateSchedule;

/**
 * The rate a run on {@code --rate-schedule} asked for in each interval of its log, computed from
 * the schedule result.json records: the warm-up at the schedule's first rate, then the schedule,
 * from the log's start.
 */
public final class TargetRate {

    private final RateSchedule wholeRun;

    private TargetRate(RateSchedule wholeRun) {
        this.wholeRun = wholeRun;
    }

    /** Null for a run without a rate schedule. */
    static TargetRate of(Workload workload) {
        if (workload == null || workload.rateSchedule() == null) {
            return null;
        }
        return new TargetRate(RateSchedule.parse(workload.rateSchedule())
                .afterLead(Math.round(workload.warmupSeconds() * 1e9)));
    }

    /** Messages per second due in the interval: the schedule's count over it, divided by its length. */
    double perSecond(double startSeconds, double lengthSeconds) {
        if (lengthSeconds <= 0) {
            return 0;
        }
        long start = Math.round(startSeconds * 1e9);
        long end = Math.round((startSeconds + lengthSeconds) * 1e9);
        return (wholeRun.countAt(end) - wholeRun.countAt(start)) / lengthSeconds;
    }
}
