package dev.msgbench.core.result;

/**
 * The load of a run as result.json records it.
 *
 * @param pacing         "fixed-rate" (e2e: open loop on a schedule) or "unpaced" (throughput)
 * @param rateMsgsPerSec the target rate; 0 when unpaced
 * @param messages       the messages asked for when unpaced; 0 on a fixed schedule
 * @param maxOutstanding per stream when unpaced; 0 for no limit
 * @param warmupSeconds  the warm-up the run had: with {@code warmup} "auto", as it was decided
 *                       during the run
 * @param warmup         "fixed" or "auto" ({@code --warmup auto}: until the system settled);
 *                       "none" when unpaced; null in results written before it was recorded
 * @param warmupSettled  with "auto": whether the system settled within the bound (false: the
 *                       warm-up reached its bound and the run measured anyway); null otherwise
 * @param messageSizeBytes the largest message of the run (with a size distribution, its largest size)
 * @param consumers      per subscription (--consumers); one topic with one subscription has no others
 * @param topics         destinations (--topics); 1 in results written before it was recorded
 * @param subscriptionsPerTopic each receiving every message of its topic (--subscriptions-per-topic);
 *                       1 in results written before it was recorded
 * @param rateSchedule   with {@code --rate-schedule}: the measured part's schedule, every repeat
 *                       written out (the warm-up before it runs at its first rate); {@code
 *                       rateMsgsPerSec} is then its mean. Null at a constant rate
 * @param messageSizes   the sizes of the messages the run sent and received; null in results
 *                       written before it was recorded
 * @param keys           the messages' record keys (--keys): none, round-robin, random or zipf:S; null
 *                       in results written before it was recorded
 * @param keyCount       the keys drawn from (--key-count); 0 without keys
 * @param payload        what the messages held after the header (--payload): {@code random}, or a
 *                       labelled experiment, {@code compressible:R} or {@code file:PATH,...}; null in
 *                       results written before it was recorded (random)
 */
public record Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                       double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                       long seed, double drainTimeoutSeconds, String warmup, Boolean warmupSettled, int topics,
                       int subscriptionsPerTopic, String rateSchedule, MessageSizeFigures messageSizes, String keys,
                       int keyCount, String payload) {

    public Workload {
        topics = Math.max(1, topics);
        subscriptionsPerTopic = Math.max(1, subscriptionsPerTopic);
    }

    /** Payload not recorded. */
    public Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                    double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                    long seed, double drainTimeoutSeconds, String warmup, Boolean warmupSettled, int topics,
                    int subscriptionsPerTopic, String rateSchedule, MessageSizeFigures messageSizes, String keys,
                    int keyCount) {
        this(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds, durationSeconds, arrival,
                producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, topics, subscriptionsPerTopic,
                rateSchedule, messageSizes, keys, keyCount, null);
    }

    /** One topic with one subscription, at a constant rate, sizes not recorded. */
    public Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                    double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                    long seed, double drainTimeoutSeconds, String warmup, Boolean warmupSettled) {
        this(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds, durationSeconds, arrival,
                producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, 1, 1, null, null, null, 0);
    }

    /** One topic with one subscription. */
    public Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                    double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                    long seed, double drainTimeoutSeconds, String warmup, Boolean warmupSettled, String rateSchedule,
                    MessageSizeFigures messageSizes) {
        this(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds, durationSeconds, arrival,
                producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, 1, 1, rateSchedule, messageSizes, null,
                0);
    }

    /** The same load spread over {@code count} topics with {@code subscriptions} each. */
    public Workload withDestinations(int count, int subscriptions) {
        return new Workload(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds,
                durationSeconds, arrival, producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, count,
                subscriptions, rateSchedule, messageSizes, keys, keyCount, payload);
    }

    /** The same load with these record keys (--keys, --key-count). */
    public Workload withKeys(String keySpec, int count) {
        return new Workload(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds,
                durationSeconds, arrival, producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, topics,
                subscriptionsPerTopic, rateSchedule, messageSizes, keySpec, count, payload);
    }

    /** The same load with messages holding this after the header (--payload, as written back). */
    public Workload withPayload(String spec) {
        return new Workload(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds,
                durationSeconds, arrival, producers, consumers, seed, drainTimeoutSeconds, warmup, warmupSettled, topics,
                subscriptionsPerTopic, rateSchedule, messageSizes, keys, keyCount, spec);
    }

    public static final String FIXED_RATE = "fixed-rate";
    public static final String UNPACED = "unpaced";
    public static final String FIXED_WARMUP = "fixed";
    public static final String AUTO_WARMUP = "auto";
    public static final String NO_WARMUP = "none";

    /** A fixed warm-up on a fixed schedule, or none when unpaced. */
    public Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                    double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                    long seed, double drainTimeoutSeconds) {
        this(pacing, rateMsgsPerSec, messages, maxOutstanding, messageSizeBytes, warmupSeconds, durationSeconds, arrival,
                producers, consumers, seed, drainTimeoutSeconds, UNPACED.equals(pacing) ? NO_WARMUP : FIXED_WARMUP, null);
    }

    /** Whether the warm-up lasted until the system settled ({@code --warmup auto}). */
    public boolean autoWarmup() {
        return AUTO_WARMUP.equals(warmup);
    }
}
