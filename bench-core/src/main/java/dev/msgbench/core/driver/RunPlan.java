package dev.msgbench.core.driver;

/**
 * What a driver needs to know about the run before it starts.
 *
 * @param runId            unique per run; drivers use it to name topics, subjects and queues
 * @param messageSizeBytes every message of the run has this size, header included
 * @param producers        number of producer streams
 * @param consumers        number of subscribers
 */
public record RunPlan(String runId, int messageSizeBytes, int producers, int consumers) {
}
