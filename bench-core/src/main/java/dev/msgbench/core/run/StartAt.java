package dev.msgbench.core.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A wall-clock instant at which the schedule starts ({@code --start-at}), given to every worker
 * so that they send together. It is turned into a deadline on the monotonic clock once; from
 * there on the schedule never reads the wall clock.
 *
 * @param instant   when the schedule (warm-up first) starts
 * @param tolerance how late a worker may be ready and still start; later, it refuses to run
 * @param clockSync how well this host's wall clock was synchronised, as the system reported it
 */
public record StartAt(Instant instant, Duration tolerance, Map<String, Object> clockSync) {

    public StartAt {
        Objects.requireNonNull(instant, "instant");
        Objects.requireNonNull(tolerance, "tolerance");
        clockSync = Collections.unmodifiableMap(new LinkedHashMap<>(clockSync));
    }

    /** The instant as a deadline on {@code nowNanos}'s clock, the wall clock read once now. */
    long deadlineNanos(long nowNanos, Instant wallNow) {
        return nowNanos + Duration.between(wallNow, instant).toNanos();
    }
}
