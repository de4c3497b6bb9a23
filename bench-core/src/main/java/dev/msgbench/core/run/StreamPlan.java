package dev.msgbench.core.run;

import dev.msgbench.core.time.Schedule;

/** The intended send times of one producer stream, and when it is done. */
interface StreamPlan {

    long DONE = Long.MIN_VALUE;

    /** The intended time of the next message, or {@link #DONE}; {@code now} is the clock's time. */
    long next(long now);

    /** Messages not yet handed out by {@link #next}; they will never be sent (the stream stopped). */
    long remainingAfterStop();

    /**
     * True when a message is due whenever the stream gets to it (no schedule): its intended
     * time is then its send time, and {@link #next}'s answer only a lower bound.
     */
    default boolean dueWhenSent() {
        return false;
    }

    /**
     * How many of the next messages, at most {@code max}, may go out back to back from {@code now}
     * without asking {@link #next} for each: only a plan whose messages are due when sent has any.
     * They are not yet handed out: {@link #burstSent} says how many were.
     */
    default long burstable(long now, long max) {
        return 0;
    }

    /** The time from which a burst sends no more: the run's end. */
    default long burstEndNanos() {
        return Long.MAX_VALUE;
    }

    /** {@code sent} of the messages {@link #burstable} allowed went out. */
    default void burstSent(long sent) {
    }

    /**
     * Fixed in advance: the schedule up to the end of the run, read per message, since an
     * automatic warm-up moves it during the run.
     */
    static StreamPlan fixed(Schedule schedule, RunWindow window) {
        return new StreamPlan() {
            @Override
            public long next(long now) {
                long due = schedule.next();
                return due < window.endNanos() ? due : DONE;
            }

            @Override
            public long remainingAfterStop() {
                long remaining = 0;
                long end = window.endNanos();
                for (long t = schedule.next(); t < end; t = schedule.next()) {
                    remaining++;
                }
                return remaining;
            }
        };
    }

    /**
     * As fast as possible: {@code messages} of them, each due the moment it is asked for, but
     * none before {@code startNanos}: a stream that began early and finished within the start
     * lead would otherwise have sent everything outside the measured part.
     */
    static StreamPlan unpaced(long messages, long startNanos, long endNanos) {
        return new StreamPlan() {
            private long handedOut;

            @Override
            public long next(long now) {
                if (handedOut >= messages || now >= endNanos) {
                    return DONE;
                }
                handedOut++;
                return Math.max(now, startNanos);
            }

            @Override
            public long remainingAfterStop() {
                // a stream with no count, stopped by its time limit, left nothing unsent
                return messages == Pacing.Unpaced.UNTIL_TIME_LIMIT ? 0 : messages - handedOut;
            }

            @Override
            public boolean dueWhenSent() {
                return true;
            }

            @Override
            public long burstable(long now, long max) {
                if (now < startNanos || now >= endNanos) {
                    return 0;
                }
                return Math.min(max, messages - handedOut);
            }

            @Override
            public long burstEndNanos() {
                return endNanos;
            }

            @Override
            public void burstSent(long sent) {
                handedOut += sent;
            }
        };
    }
}
