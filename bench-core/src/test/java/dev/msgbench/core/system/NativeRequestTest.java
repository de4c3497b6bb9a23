package dev.msgbench.core.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;

class NativeRequestTest {

    private static NativeRequest withKnobs(Map<String, String> knobs) {
        return new NativeRequest("x://h:1", NativeSide.PUBLISHER, 100, 10, 0, "cmp-1", knobs);
    }

    @Test
    void aCountKnobMustBeAWholeNumberOfAtLeastOne() {
        assertEquals(16, withKnobs(Map.of("pipeline", "16")).positiveKnob("pipeline"));
        for (String bad : List.of("0", "-3", "x", "1.5")) {
            UserError e = assertThrows(UserError.class, () -> withKnobs(Map.of("pipeline", bad)).positiveKnob("pipeline"));
            assertEquals("knob pipeline must be a whole number of at least 1, got '" + bad + "'", e.getMessage());
        }
    }

    @Test
    void aChoiceKnobNamesItsChoices() {
        assertEquals("a", withKnobs(Map.of("client", "a")).choiceKnob("client", List.of("a", "b")));
        UserError e = assertThrows(UserError.class,
                () -> withKnobs(Map.of("client", "c")).choiceKnob("client", List.of("a", "b")));
        assertEquals("knob client must be a or b, got 'c'", e.getMessage());
    }

    @Test
    void aKnobTheToolNeverDeclaredIsABug() {
        assertThrows(IllegalStateException.class, () -> withKnobs(Map.of()).knob("client"));
    }

    @Test
    void eachSideHasTheShortNameOfTheLogsAndTheScript() {
        assertEquals("pub", NativeSide.PUBLISHER.shortName());
        assertEquals("sub", NativeSide.SUBSCRIBER.shortName());
    }
}
