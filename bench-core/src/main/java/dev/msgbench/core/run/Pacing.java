package dev.msgbench.core.run;

import java.time.Duration;

import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.RateSchedule;

/** How producers pace their sends: on a fixed schedule (latency) or as fast as accepted (throughput). */
public sealed interface Pacing permits Pacing.FixedRate, Pacing.Unpaced {

    /**
     * The open-loop schedule of {@code e2e}: intended send times fixed in advance.
     *
     * @param warmup     scheduled and sent like the rest, excluded from the results; with
     *                   {@code autoWarmup}, the longest it may last (whole seconds, at least
     *                   {@link #MIN_AUTO_WARMUP})
     * @param autoWarmup the warm-up lasts until the system has settled ({@code --warmup auto}),
     *                   at most {@code warmup}; the measured {@code duration} follows it
     * @param schedule   a rate that changes over the measured time ({@code --rate-schedule}), or
     *                   null for a constant {@code rateMsgsPerSec}. With a schedule, {@code
     *                   rateMsgsPerSec} is its mean and {@code duration} its length; the warm-up
     *                   runs before it at its first rate
     */
    record FixedRate(double rateMsgsPerSec, Arrival arrival, Duration warmup, Duration duration, boolean autoWarmup,
                     RateSchedule schedule) implements Pacing {

        /**
         * The judge ({@link dev.msgbench.core.analysis.WarmupJudge}) needs two 5 s windows, and
         * measuring starts at the second after its judgement: a shorter bound could never settle.
         */
        public static final Duration MIN_AUTO_WARMUP = Duration.ofSeconds(11);
        /** The bound of a plain {@code --warmup auto}. */
        public static final Duration DEFAULT_AUTO_WARMUP = Duration.ofSeconds(60);

        public FixedRate {
            if (!(rateMsgsPerSec > 0) || Double.isInfinite(rateMsgsPerSec)) {
                throw new IllegalArgumentException("rate must be positive and finite: " + rateMsgsPerSec);
            }
            if (warmup.isNegative() || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("warmup >= 0 and duration > 0");
            }
            if (autoWarmup && (warmup.compareTo(MIN_AUTO_WARMUP) < 0 || warmup.toNanos() % 1_000_000_000L != 0)) {
                throw new IllegalArgumentException("an automatic warm-up's bound is whole seconds, at least 11 s: " + warmup);
            }
            if (schedule != null && (autoWarmup || schedule.durationNanos() != duration.toNanos())) {
                throw new IllegalArgumentException("a rate schedule has a fixed warm-up and lasts the duration");
            }
        }

        public FixedRate(double rateMsgsPerSec, Arrival arrival, Duration warmup, Duration duration, boolean autoWarmup) {
            this(rateMsgsPerSec, arrival, warmup, duration, autoWarmup, null);
        }

        /** On a rate schedule: the measured time is the schedule, after a warm-up at its first rate. */
        public static FixedRate scheduled(RateSchedule schedule, Arrival arrival, Duration warmup) {
            return new FixedRate(schedule.meanRateMsgsPerSec(), arrival, warmup, Duration.ofNanos(schedule.durationNanos()),
                    false, schedule);
        }

        /** A warm-up of fixed length. */
        public FixedRate(double rateMsgsPerSec, Arrival arrival, Duration warmup, Duration duration) {
            this(rateMsgsPerSec, arrival, warmup, duration, false);
        }

        /** A warm-up until the system has settled, at most {@code maxWarmup}. */
        public static FixedRate withAutoWarmup(double rateMsgsPerSec, Arrival arrival, Duration maxWarmup,
                                               Duration duration) {
            return new FixedRate(rateMsgsPerSec, arrival, maxWarmup, duration, true);
        }
    }

    /**
     * The {@code throughput} command: each message is sent as soon as the client takes it and
     * fewer than {@code maxOutstanding} of its stream await acknowledgement. The intended send
     * time is the moment the message could go, so latency here is the system's own time under
     * saturation, not a response time at a stated load.
     *
     * @param messages       all producer streams together
     * @param maxOutstanding per stream; 0 for no bound (systems that do not acknowledge)
     * @param timeLimit      the run stops sending after this long even if messages remain
     * @param consumeAfterProduce consumers start only once every message is stored, and read
     *                       from the start (E7's "consumer from the start of the log")
     * @param warmupMessages messages of runs of their own before this one, on destinations of their own,
     *                       whose figures are kept apart (--warmup-messages): the JIT compiles the paths the
     *                       measured run takes before it starts; 0 for none
     */
    record Unpaced(long messages, int maxOutstanding, Duration timeLimit, boolean consumeAfterProduce,
                   long warmupMessages) implements Pacing {

        /** {@code messages} of a run limited by its time alone: it sends until the time is up. */
        public static final long UNTIL_TIME_LIMIT = Long.MAX_VALUE;

        public Unpaced {
            if (messages < 1 || maxOutstanding < 0 || timeLimit.isNegative() || timeLimit.isZero() || warmupMessages < 0) {
                throw new IllegalArgumentException("messages >= 1, maxOutstanding >= 0, timeLimit > 0, warmupMessages >= 0");
            }
        }

        /** Without a warm-up run. */
        public Unpaced(long messages, int maxOutstanding, Duration timeLimit, boolean consumeAfterProduce) {
            this(messages, maxOutstanding, timeLimit, consumeAfterProduce, 0);
        }

        /** A warm-up run's own pacing: {@code messages} of the warm-up's, the same limits, no warm-up of its own. */
        public Unpaced warmupRun(long messages) {
            return new Unpaced(messages, maxOutstanding, timeLimit, consumeAfterProduce, 0);
        }
    }
}
