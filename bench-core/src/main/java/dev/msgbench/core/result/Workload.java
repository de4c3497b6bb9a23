package dev.msgbench.core.result;

/** The load of a run as result.json records it. */
public record Workload(double rateMsgsPerSec, int messageSizeBytes, double warmupSeconds, double durationSeconds,
                       String arrival, int producers, int consumers, long seed, double drainTimeoutSeconds) {
}
