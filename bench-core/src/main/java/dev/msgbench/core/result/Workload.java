package dev.msgbench.core.result;

/**
 * The load of a run as result.json records it.
 *
 * @param pacing         "fixed-rate" (e2e: open loop on a schedule) or "unpaced" (throughput)
 * @param rateMsgsPerSec the target rate; 0 when unpaced
 * @param messages       the messages asked for when unpaced; 0 on a fixed schedule
 * @param maxOutstanding per stream when unpaced; 0 for no limit
 */
public record Workload(String pacing, double rateMsgsPerSec, long messages, int maxOutstanding, int messageSizeBytes,
                       double warmupSeconds, double durationSeconds, String arrival, int producers, int consumers,
                       long seed, double drainTimeoutSeconds) {

    public static final String FIXED_RATE = "fixed-rate";
    public static final String UNPACED = "unpaced";
}
