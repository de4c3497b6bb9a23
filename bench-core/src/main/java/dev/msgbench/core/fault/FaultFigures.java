package dev.msgbench.core.fault;

import java.util.List;

import dev.msgbench.core.analysis.RunIntervals;

/**
 * The per-fault figures, from what the run recorded: its longest delivery gaps and the latency
 * of each second. Times are nanoseconds of the run's clock.
 */
final class FaultFigures {

    /** An interval counts as recovered when its p99 is at most this times the p99 before the fault. */
    static final double RECOVERED_WITHIN = 2.0;

    private FaultFigures() {
    }

    /**
     * @param askedNanos     when the fault was asked
     * @param overNanos      when its effect on the node was over (a pause resumed, a restarted node
     *                       back, a kill or a command done); Long.MAX_VALUE if it never was
     * @param nextAskedNanos when the next fault was asked, or Long.MAX_VALUE
     * @param gaps           the longest gaps between deliveries, each {start, length}
     * @param openGap        the gap from the last delivery to the end of the run, {start, length}, when
     *                       messages meant to arrive after that delivery never did; else null
     */
    static FaultReport of(FaultEvent event, long askedNanos, long overNanos, long nextAskedNanos, List<long[]> gaps,
                          long[] openGap, List<RunIntervals.Interval> intervals) {
        long longestGap = -1;
        long gapAfterEnd = 0;
        for (long[] gap : gaps) {
            long start = gap[0];
            long end = gap[0] + gap[1];
            if (end > askedNanos && start < nextAskedNanos) {
                longestGap = Math.max(longestGap, gap[1]);
            }
            if (start >= overNanos && start < nextAskedNanos) {
                gapAfterEnd = Math.max(gapAfterEnd, gap[1]);
            }
        }
        boolean toEnd = false;
        if (openGap != null && openGap[0] + openGap[1] > askedNanos && openGap[0] < nextAskedNanos) {
            if (openGap[1] >= longestGap) {
                longestGap = openGap[1];
                toEnd = true;
            }
            if (openGap[0] >= overNanos) {
                gapAfterEnd = Math.max(gapAfterEnd, openGap[1]);
            }
        }
        long maxLatency = -1;
        RunIntervals.Interval before = null;
        for (RunIntervals.Interval i : intervals) {
            if (i.count() == 0) {
                continue;
            }
            if (i.endNanos() <= askedNanos) {
                before = i;
            } else if (i.startNanos() < nextAskedNanos) {
                maxLatency = Math.max(maxLatency, i.maxNanos());
            }
        }
        Double recovery = null;
        if (before != null) {
            for (RunIntervals.Interval i : intervals) {
                if (i.startNanos() >= overNanos && i.count() > 0 && i.p99Nanos() <= RECOVERED_WITHIN * before.p99Nanos()) {
                    recovery = (i.startNanos() - askedNanos) / 1e9;
                    break;
                }
            }
        }
        return new FaultReport(event, longestGap < 0 ? null : longestGap / 1e9, maxLatency < 0 ? null : maxLatency / 1e6,
                recovery, before == null ? null : before.p99Nanos() / 1e6,
                overNanos == Long.MAX_VALUE ? null : gapAfterEnd / 1e9, toEnd);
    }
}
