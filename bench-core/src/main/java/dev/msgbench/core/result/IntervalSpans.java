package dev.msgbench.core.result;

import java.util.Locale;

/**
 * How long latency.hlog's intervals are, so that a run of a day stays bounded on disk: a second
 * each for the first {@code fineForSeconds} (warm-up always included), then {@code coarseSeconds}
 * each, made by adding the one-second histograms (exact: counts are added, never percentiles
 * averaged), and longer again (six times, up to an hour) whenever the intervals still to come, at
 * the mean size of the last six or more written, would take the log past {@code maxBytes}.
 *
 * <p>Measured (docs/measurements.md): one-second intervals at 10,000 msg/s take about 9.5 KB a
 * second for the five kinds, 34.7 MB an hour, 820 MB a day; gzip of the log saves only a quarter
 * (HdrHistogram already deflates each histogram), so coarser intervals are what bounds it.
 *
 * @param fineForSeconds one-second intervals from the log's StartTime for this long
 * @param coarseSeconds  the length of the intervals after that, at first
 * @param maxBytes       what the whole log should stay within
 */
public record IntervalSpans(double fineForSeconds, double coarseSeconds, long maxBytes) {

    /**
     * An hour of seconds, then ten-second intervals within 256 MiB. Measured on a real hour at 10,000
     * msg/s (34.7 MB in seconds): 9.6 MB in ten-second intervals, 2.8 MB in minutes; so a day takes
     * about 34.7 + 23 x 9.6 = 256 MB (244 MiB), and a busier run gets minutes sooner.
     */
    public static final IntervalSpans DEFAULT = new IntervalSpans(3600, 10, 256L << 20);
    /** Intervals get longer by this factor when the budget asks for it... */
    static final int LONGER = 6;
    /** ...up to an hour. */
    static final double LONGEST_SECONDS = 3600;

    public IntervalSpans {
        if (!(fineForSeconds >= 0) || !(coarseSeconds >= 1) || maxBytes <= 0) {
            throw new IllegalArgumentException("interval spans must be fine for >= 0 s, then >= 1 s, within > 0 bytes, got "
                    + fineForSeconds + " s, " + coarseSeconds + " s, " + maxBytes + " bytes");
        }
    }

    /** Whether a run of this many seconds (warm-up included) gets coarser intervals at all. */
    public boolean coarsens(double runSeconds) {
        return runSeconds > fineForSeconds;
    }

    /** The line a run prints up front: how long its intervals are and what the log will take at most. */
    public String describe(double runSeconds) {
        if (!coarsens(runSeconds)) {
            return "interval log (" + IntervalLog.FILE_NAME + "): one-second intervals";
        }
        return String.format(Locale.US, "interval log (%s): one-second intervals for the first %s, then %s ones (longer "
                        + "if needed) to stay within %s for the %s run, unless the first %s alone takes more (about 35 MB "
                        + "at 10,000 msg/s); %s: about %s (a row a second)", IntervalLog.FILE_NAME, human(fineForSeconds),
                human(coarseSeconds), mebibytes(maxBytes), human(runSeconds), human(fineForSeconds),
                IntervalLog.COUNTS_FILE_NAME, mebibytes((long) (runSeconds * IntervalCounts.ROW_BYTES)));
    }

    static String human(double seconds) {
        if (seconds >= 3600 && seconds % 3600 == 0) {
            return (long) seconds / 3600 + " h";
        }
        if (seconds >= 60 && seconds % 60 == 0) {
            return (long) seconds / 60 + " min";
        }
        return String.format(Locale.US, "%.0f s", seconds);
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.US, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
