package dev.msgbench.core.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void sizesAcceptBinaryAndDecimalUnits() {
        assertEquals(100, Sizes.parseBytes("100"));
        assertEquals(256, Sizes.parseBytes("256B"));
        assertEquals(1_024, Sizes.parseBytes("1KiB"));
        assertEquals(5_000, Sizes.parseBytes("5KB"));
        assertEquals(1_048_576, Sizes.parseBytes("1MiB"));
        assertEquals(1_536, Sizes.parseBytes("1.5kib"));
    }

    @Test
    void badSizesSayWhatIsWrong() {
        assertEquals("'12parsecs' has an unknown unit 'parsecs' (use B, KB, KiB, MB, MiB, GB or GiB)",
                assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("12parsecs")).getMessage());
        assertEquals("'-1' is not a size (examples: 100, 256B, 1KiB, 1MiB)",
                assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("-1")).getMessage());
        assertEquals("'0.5B' is not a whole number of bytes",
                assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes("0.5B")).getMessage());
    }

    @Test
    void sizesFormatToTheirShortestExactForm() {
        assertEquals("1MiB", Sizes.format(1_048_576));
        assertEquals("1KiB", Sizes.format(1_024));
        assertEquals("5KB", Sizes.format(5_000));
        assertEquals("100B", Sizes.format(100));
    }

    @Test
    void durationsAcceptTheUsualUnitsAndBareSeconds() {
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofMillis(1_500), Durations.parse("1.5"));
        assertEquals("'soon' is not a duration (examples: 30s, 2m, 500ms, 1h)",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("soon")).getMessage());
    }
}
