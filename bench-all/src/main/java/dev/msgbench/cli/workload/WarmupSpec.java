package dev.msgbench.cli.workload;

import java.time.Duration;
import java.util.Locale;

import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.units.Durations;

/**
 * The value of {@code --warmup}: a time ({@code 5s}), or {@code auto} (until the system has
 * settled, at most 60 s) or {@code auto:MAX} (at most MAX).
 *
 * @param length the fixed warm-up, or the bound of an automatic one
 */
public record WarmupSpec(Duration length, boolean auto) {

    public static final String AUTO = "auto";
    private static final String AUTO_PREFIX = "auto:";
    private static final long SECOND_NANOS = 1_000_000_000L;

    /** @throws IllegalArgumentException with a message that quotes the value and says what is accepted */
    public static WarmupSpec parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals(AUTO)) {
            return new WarmupSpec(Pacing.FixedRate.DEFAULT_AUTO_WARMUP, true);
        }
        if (t.startsWith(AUTO_PREFIX)) {
            Duration bound;
            try {
                bound = Durations.parse(t.substring(AUTO_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "': the bound of auto:MAX " + e.getMessage());
            }
            long minSeconds = Pacing.FixedRate.MIN_AUTO_WARMUP.toSeconds();
            if (bound.compareTo(Pacing.FixedRate.MIN_AUTO_WARMUP) < 0 || bound.toNanos() % SECOND_NANOS != 0) {
                throw new IllegalArgumentException("'" + text + "': the bound of auto:MAX must be whole seconds, at least "
                        + minSeconds + "s (two 5 s windows to judge, then measuring starts on the next second)");
            }
            return new WarmupSpec(bound, true);
        }
        if (t.startsWith(AUTO)) {
            throw new IllegalArgumentException("'" + text + "' is not a warm-up: give a time (5s), auto, or auto:MAX (auto:90s)");
        }
        return new WarmupSpec(Durations.parse(text), false);
    }

    /** As given on the command line. */
    public String text() {
        if (!auto) {
            return Durations.format(length);
        }
        return length.equals(Pacing.FixedRate.DEFAULT_AUTO_WARMUP) ? AUTO : AUTO_PREFIX + Durations.format(length);
    }

    /**
     * For --scale: a fixed warm-up shrinks (or grows) with the factor as {@link Scaling#warmup}
     * says; an automatic one is left as it is, bound included: it lasts until the system settles,
     * and a quick look must not cut a fresh broker's warm-up short (one took about 10 s here).
     */
    WarmupSpec scaled(double factor) {
        return auto ? this : new WarmupSpec(Scaling.warmup(length, factor), false);
    }

    /** The schedule of a latency run with this warm-up. */
    public Pacing.FixedRate pacing(double rateMsgsPerSec, Arrival arrival, Duration duration) {
        return new Pacing.FixedRate(rateMsgsPerSec, arrival, length, duration, auto);
    }
}
