package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;

class NatsSettingsTest {

    @Test
    void coreNatsTakesAcksZeroAndItsDefault() {
        NatsSettings.checkAcks(null);
        NatsSettings.checkAcks(Acks.NONE);
        assertEquals("0", NatsSettings.ACKS.flagValue());
    }

    @ParameterizedTest
    @EnumSource(value = Acks.class, names = {"BROKER", "ALL"})
    void anAcknowledgementIsRefusedPointingToJetStream(Acks acks) {
        UserError e = assertThrows(UserError.class, () -> NatsSettings.checkAcks(acks));
        assertEquals("--acks " + acks.flagValue() + " is not available for core NATS: it never acknowledges a message "
                + "(at-most-once); use --acks 0, or --system jetstream for stored, acknowledged messages", e.getMessage());
    }
}
