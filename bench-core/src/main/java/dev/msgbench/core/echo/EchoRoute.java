package dev.msgbench.core.echo;

import dev.msgbench.core.driver.RunPlan;

/**
 * Where an echo run's messages go, derived from its run id alone, so that a responder on another
 * host finds the same destinations as the measuring side when both are given the same id.
 */
public final class EchoRoute {

    /** What result.json's settings say the latency is, for every system. */
    public static final String LATENCY = "round trip: producer -> broker -> responder -> broker -> consumer, one clock";

    private EchoRoute() {
    }

    /** The run id of the return destination: the outbound's with "-back" appended. */
    public static String backRunId(String runId) {
        return runId + "-back";
    }

    /**
     * The outbound plan: the producers' destination, read by {@code readers} responder subscriptions
     * (0 where the responder is another process: this side only publishes).
     */
    public static RunPlan outbound(String runId, RunPlan plan, int readers) {
        return new RunPlan(runId, plan.messageSizeBytes(), plan.producers(), readers);
    }

    /** The return plan, read by {@code readers} subscriptions (0 in a responder of its own: it only publishes). */
    public static RunPlan back(String runId, RunPlan plan, int readers) {
        return new RunPlan(backRunId(runId), plan.messageSizeBytes(), plan.producers(), readers);
    }
}
