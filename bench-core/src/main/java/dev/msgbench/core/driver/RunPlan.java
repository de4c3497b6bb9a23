package dev.msgbench.core.driver;

/**
 * What a driver needs to know about the run before it starts.
 *
 * @param runId            unique per run; drivers use it to name topics, subjects and queues
 * @param messageSizeBytes the largest message of the run, header included: every message with one
 *                         --size, the largest size of a distribution ({@code uniform:}, {@code
 *                         weights:}). Drivers check the system's limits against it; each message's
 *                         own length is its array's
 * @param producers        number of producer streams
 * @param consumers        number of subscribers
 */
public record RunPlan(String runId, int messageSizeBytes, int producers, int consumers) {
}
