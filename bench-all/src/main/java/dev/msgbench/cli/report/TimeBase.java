package dev.msgbench.cli.report;

/**
 * The one time axis of a run's over-time charts: seconds from the end of the warm-up, the warm-up
 * negative. It is the clock of result.json's faults and of the summary's fault lines, so a fault
 * asked at 10 s is drawn at 10 on every chart, and a reader can lay the page's numbers over its
 * charts. latency.hlog and intervals.csv count from the log's StartTime instead (the warm-up's
 * start); this turns theirs into the page's.
 *
 * @param warmupSeconds where the measured window starts, seconds from the log's StartTime
 */
record TimeBase(double warmupSeconds) {

    /** What the charts' x axis says, so no reader has to guess which clock it is. */
    static final String AXIS_TITLE = "seconds from the end of the warm-up (the warm-up is negative; faults count from 0 too)";

    static TimeBase of(RunFolder run) {
        return new TimeBase(run.intervals().warmupSeconds());
    }

    /** A time of the interval log (seconds from its StartTime) on the page's axis. */
    double fromLog(double logSeconds) {
        return logSeconds - warmupSeconds;
    }

    /** Where the charts' axis starts: the log's StartTime. */
    double start() {
        return -warmupSeconds;
    }
}
