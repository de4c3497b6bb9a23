package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;

class JetStreamSettingsTest {

    private static final JetStreamSettings DEFAULTS = JetStreamSettings.defaults("nats://127.0.0.1:4222");

    @Test
    void withoutAcksAPublishAwaitsItsPubAck() {
        assertEquals(Acks.BROKER, DEFAULTS.withAcks(null).acks());
        assertTrue(DEFAULTS.withAcks(null).awaitsPubAck());
    }

    @Test
    void acksZeroIsACorePublishAndOneAndAllAwaitThePubAck() {
        assertFalse(DEFAULTS.withAcks(Acks.NONE).awaitsPubAck());
        assertTrue(DEFAULTS.withAcks(Acks.BROKER).awaitsPubAck());
        assertTrue(DEFAULTS.withAcks(Acks.ALL).awaitsPubAck());
    }

    @Test
    void acksAllNeedsAReplicatedStreamAndSaysHowToGetOneLocallyOrAtTheUrl() {
        UserError local = assertThrows(UserError.class, () -> JetStreamSettings.checkAcks(Acks.ALL, 1, true));
        assertEquals("--acks all waits for replicas, but the stream has 1 (--js-replicas 1), so it would mean the same "
                + "as --acks 1; use --acks 1, or a replicated stream (--js-replicas 3, with --brokers 3 for a local "
                + "cluster)", local.getMessage());
        UserError remote = assertThrows(UserError.class, () -> JetStreamSettings.checkAcks(Acks.ALL, 1, false));
        assertEquals("--acks all waits for replicas, but the stream has 1 (--js-replicas 1), so it would mean the same "
                + "as --acks 1; use --acks 1, or a replicated stream (--js-replicas 3, with a cluster at --url)",
                remote.getMessage());
    }

    @Test
    void everyOtherCombinationPasses() {
        JetStreamSettings.checkAcks(Acks.ALL, 3, true);
        JetStreamSettings.checkAcks(Acks.BROKER, 1, true);
        JetStreamSettings.checkAcks(Acks.NONE, 1, false);
        JetStreamSettings.checkAcks(null, 1, false);
    }
}
