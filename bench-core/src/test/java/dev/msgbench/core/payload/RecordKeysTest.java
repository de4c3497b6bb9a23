package dev.msgbench.core.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RecordKeysTest {

    private static final int DRAWS = 200_000;

    @Test
    void roundRobinTakesEachKeyInTurnAndStartsAgain() {
        RecordKeys.Chooser keys = RecordKeys.parse("round-robin", 3).chooser(7);

        int[] drawn = new int[7];
        for (int i = 0; i < drawn.length; i++) {
            drawn[i] = keys.next();
        }

        assertArrayEquals(new int[] {0, 1, 2, 0, 1, 2, 0}, drawn);
    }

    @Test
    void theSameSeedDrawsTheSameKeysAndAnotherSeedOthers() {
        for (String spec : new String[] {"random", "zipf:1.1"}) {
            RecordKeys keys = RecordKeys.parse(spec, 1000);
            RecordKeys.Chooser a = keys.chooser(42);
            RecordKeys.Chooser b = keys.chooser(42);
            RecordKeys.Chooser c = keys.chooser(43);
            int differ = 0;
            for (int i = 0; i < 1000; i++) {
                int x = a.next();
                assertEquals(x, b.next(), spec);
                differ += x == c.next() ? 0 : 1;
            }
            assertTrue(differ > 500, spec + ": another seed drew the same keys " + (1000 - differ) + " times");
        }
    }

    @Test
    void randomKeysAreEquallyFrequent() {
        int[] counts = draw(RecordKeys.parse("random", 10), 1);

        for (int k = 0; k < 10; k++) {
            // the expectation is 20,000 with a standard deviation of 134
            assertEquals(DRAWS / 10.0, counts[k], 800, "key " + k);
        }
    }

    @Test
    void zipfKeysFollowTheirExponent() {
        RecordKeys keys = RecordKeys.parse("zipf:1", 100);
        int[] counts = draw(keys, 1);

        // with exponent 1 over 100 keys, key k has probability 1/(k+1) / H(100), H(100) = 5.18738
        assertEquals(1 / 5.18738, keys.probability(0), 1e-5);
        assertEquals(0.5 / 5.18738, keys.probability(1), 1e-5);
        for (int k : new int[] {0, 1, 9, 99}) {
            double expected = DRAWS * keys.probability(k);
            assertEquals(expected, counts[k], 5 * Math.sqrt(expected) + 1, "key " + k);
        }
    }

    @Test
    void keysAreNamedByTheirIndex() {
        byte[][] names = RecordKeys.parse("random", 12).keyBytes();

        assertEquals(12, names.length);
        assertEquals("k0", new String(names[0], StandardCharsets.US_ASCII));
        assertEquals("k11", new String(names[11], StandardCharsets.US_ASCII));
    }

    @Test
    void specsAreWrittenBackAsTheSuiteReadsThem() {
        assertEquals("zipf:1.1", RecordKeys.parse(" ZIPF:1.10 ", 5).spec());
        assertEquals("zipf:2", RecordKeys.parse("zipf:2", 5).spec());
        assertEquals("round-robin over 5", RecordKeys.parse("round-robin", 5).toString());
        assertTrue(RecordKeys.parse("none", 0).isNone());
        assertEquals(0, RecordKeys.parse("none", 5).count());
        assertNull(RecordKeys.NONE.chooser(1));
    }

    @Test
    void wrongSpecsAreRefusedWithTheRule() {
        assertEquals("keys are none, round-robin, random or zipf:S (e.g. zipf:1.1), got 'hash'",
                assertThrows(IllegalArgumentException.class, () -> RecordKeys.parse("hash", 5)).getMessage());
        assertEquals("zipf:S needs a number S above 0 (e.g. zipf:1.1), got 'zipf:0'",
                assertThrows(IllegalArgumentException.class, () -> RecordKeys.parse("zipf:0", 5)).getMessage());
        assertEquals("zipf:S needs a number S above 0 (e.g. zipf:1.1), got 'zipf:x'",
                assertThrows(IllegalArgumentException.class, () -> RecordKeys.parse("zipf:x", 5)).getMessage());
        assertEquals("a key count is at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> RecordKeys.parse("random", 0)).getMessage());
    }

    private static int[] draw(RecordKeys keys, long seed) {
        int[] counts = new int[keys.count()];
        RecordKeys.Chooser chooser = keys.chooser(seed);
        for (int i = 0; i < DRAWS; i++) {
            counts[chooser.next()]++;
        }
        return counts;
    }
}
