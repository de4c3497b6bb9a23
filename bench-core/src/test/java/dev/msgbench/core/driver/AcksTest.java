package dev.msgbench.core.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AcksTest {

    @Test
    void theThreeValuesOfTheFlagParseToTheirMeaning() {
        assertEquals(Acks.NONE, Acks.parse("0"));
        assertEquals(Acks.BROKER, Acks.parse("1"));
        assertEquals(Acks.ALL, Acks.parse("all"));
    }

    @Test
    void eachValueIsWrittenBackAsTheFlagTakesIt() {
        for (Acks acks : Acks.values()) {
            assertEquals(acks, Acks.parse(acks.flagValue()));
        }
        assertEquals("all", Acks.ALL.flagValue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "ALL", "-1", "", " 1", "quorum"})
    void anythingElseIsRefusedNamingTheAllowedValuesAndTheOneGiven(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Acks.parse(text));
        assertEquals("must be 0, 1 or all, got '" + text + "'", e.getMessage());
    }
}
