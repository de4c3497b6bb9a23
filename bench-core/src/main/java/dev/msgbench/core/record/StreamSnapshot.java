package dev.msgbench.core.record;

/**
 * Counts of one stream, or of all streams added up, at one moment.
 *
 * @param received unique messages received (duplicates excluded)
 * @param late     received after a jump of the tracking window: counted as received, but
 *                 could not be checked for duplication
 * @param gaps     sequences below the highest received that have not arrived (yet)
 */
public record StreamSnapshot(int streamId, long sent, long acked, long sendErrors, long received,
                             long duplicated, long reordered, long late, long gaps) {

    /** Sent but never received; meaningful once the run has drained. */
    public long lost() {
        return Math.max(0, sent - received);
    }

    public StreamSnapshot plus(StreamSnapshot other) {
        return new StreamSnapshot(-1, sent + other.sent, acked + other.acked, sendErrors + other.sendErrors,
                received + other.received, duplicated + other.duplicated, reordered + other.reordered,
                late + other.late, gaps + other.gaps);
    }

    public static StreamSnapshot zero() {
        return new StreamSnapshot(-1, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
