package dev.msgbench.nats;

import dev.msgbench.core.driver.RunPlan;

/** How the results describe the connections of a run whose producers or consumers share them. */
final class Sharing {

    private Sharing() {
    }

    /**
     * @param plan     the run's, or null before it is prepared
     * @param unshared the description of a run where every producer stream and consumer has its own
     */
    static String describe(RunPlan plan, String unshared) {
        if (plan == null || !plan.producersShareConnections() && !plan.consumersShareConnections()) {
            return unshared;
        }
        String producers = plan.producersShareConnections()
                ? plan.producerConnections() + " for " + plan.producers() + " producer streams (stream s on connection "
                        + "s mod " + plan.producerConnections() + ", each used by one producer thread)"
                : "one per producer stream";
        String consumers = plan.consumersShareConnections()
                ? plan.consumerConnections() + " for " + plan.consumers() + " consumers (consumer i on connection i mod "
                        + plan.consumerConnections() + ", each message handed to its own consumer)"
                : "one per consumer";
        return producers + "; " + consumers;
    }
}
