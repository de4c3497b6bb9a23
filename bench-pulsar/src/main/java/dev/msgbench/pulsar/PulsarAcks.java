package dev.msgbench.pulsar;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;

/**
 * --acks on Pulsar: a producer's send is always acknowledged once the ack quorum of the ledger's
 * bookies has the entry, so --acks chooses that quorum (the namespace's persistence policy): 1
 * waits for one bookie, all for every bookie of the write quorum. On a standalone, with one bookie,
 * both are 1.
 */
final class PulsarAcks {

    private PulsarAcks() {
    }

    /** Refuses what Pulsar has no equivalent for. */
    static void validate(Acks acks) {
        if (acks == Acks.NONE) {
            throw new UserError("--acks 0: a Pulsar producer always waits for the bookies' ack quorum; use --acks 1 "
                    + "(ack quorum 1) or all (ack quorum = write quorum), or leave it out for the broker's default");
        }
    }

    /** The ack quorum for {@code acks} with a write quorum of {@code writeQuorum}. */
    static int ackQuorum(Acks acks, int writeQuorum) {
        validate(acks);
        return acks == Acks.ALL ? writeQuorum : 1;
    }
}
