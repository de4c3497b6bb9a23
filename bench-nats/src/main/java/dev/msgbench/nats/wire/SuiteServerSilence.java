package dev.msgbench.nats.wire;

import java.time.Duration;

/**
 * What to say when a NATS server the suite started and found ready does not answer a client: the
 * address is the suite's own, so advice about --url would mislead; what is left is a server that
 * died (its log says why) or a machine too busy to let the handshake through within the bound.
 * Shared by the jnats and the direct client, so that both say it alike.
 */
public final class SuiteServerSilence {

    private SuiteServerSilence() {
    }

    /** @param servers the server list without passwords */
    public static String describe(String servers, Duration timeout) {
        return "the local NATS server the suite started at " + servers + " did not answer within " + timeout.toSeconds()
                + " s (its log is in the run's broker-logs/); the machine may be too busy";
    }
}
