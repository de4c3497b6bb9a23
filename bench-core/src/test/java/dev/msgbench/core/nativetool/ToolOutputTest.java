package dev.msgbench.core.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class ToolOutputTest {

    private static final Pattern RATE = Pattern.compile("rate: ([0-9.]+)");

    @Test
    void theLastMatchingLineWinsAndALineMustMatchFromItsStart() {
        assertEquals(Optional.of("2.5"), ToolOutput.lastGroup("rate: 1\nnoise\nrate: 2.5\n  rate: 9\n", RATE));
    }

    @Test
    void noMatchingLineIsNoFigure() {
        assertEquals(Optional.empty(), ToolOutput.lastGroup("", RATE));
        assertEquals(Optional.empty(), ToolOutput.lastGroup("rates: 3\r\n", RATE));
    }

    @Test
    void aPrefixIsLookedForAtEachLinesStart() {
        assertTrue(ToolOutput.anyLineStartsWith("a\r\nWARNING: x\n", "WARNING:"));
        assertFalse(ToolOutput.anyLineStartsWith("a WARNING: x\n", "WARNING:"));
    }
}
