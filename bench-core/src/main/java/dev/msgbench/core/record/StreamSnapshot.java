package dev.msgbench.core.record;

/**
 * Counts of one stream, or of all streams added up, at one moment.
 *
 * @param received unique deliveries received (duplicates excluded), over every subscription
 * @param late     received after a jump of the tracking window: counted as received, but
 *                 could not be checked for duplication
 * @param gaps     sequences below the highest received that have not arrived (yet)
 * @param expected deliveries expected: each message sent, once per subscription of its topic
 */
public record StreamSnapshot(int streamId, long sent, long acked, long sendErrors, long received,
                             long duplicated, long reordered, long late, long gaps, long expected) {

    /** One subscription: each message sent is expected once. */
    public StreamSnapshot(int streamId, long sent, long acked, long sendErrors, long received, long duplicated,
                          long reordered, long late, long gaps) {
        this(streamId, sent, acked, sendErrors, received, duplicated, reordered, late, gaps, sent);
    }

    /** Expected and never received; meaningful once the run has drained. */
    public long lost() {
        return Math.max(0, expected - received);
    }

    public StreamSnapshot plus(StreamSnapshot other) {
        return new StreamSnapshot(-1, sent + other.sent, acked + other.acked, sendErrors + other.sendErrors,
                received + other.received, duplicated + other.duplicated, reordered + other.reordered,
                late + other.late, gaps + other.gaps, expected + other.expected);
    }

    /** The same stream's messages as another subscription received them: sends are not counted twice. */
    StreamSnapshot plusDeliveries(StreamSnapshot other) {
        return new StreamSnapshot(streamId, sent, acked, sendErrors, received + other.received,
                duplicated + other.duplicated, reordered + other.reordered, late + other.late, gaps + other.gaps,
                expected + other.expected);
    }

    public static StreamSnapshot zero() {
        return new StreamSnapshot(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
