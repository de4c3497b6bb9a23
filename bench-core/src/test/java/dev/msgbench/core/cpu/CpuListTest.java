package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CpuListTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "0-1|0-1",
            "0,2|0,2",
            "3,0-1,2|0-3",
            "5,1,1|1,5",
            "0-0|0",
            "1-2,4-6,8|1-2,4-6,8",
    })
    void theCanonicalFormIsSortedWithRangesMergedAsTheKernelPrintsIt(String text, String canonical) {
        assertEquals(canonical, CpuList.parse(text).toString());
    }

    @Test
    void aListHoldsEachCpuOnce() {
        assertEquals(List.of(0, 2, 3), CpuList.parse("3,0,2-3").cpus());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "0-", "-1", "1-0", "0,,1", "0, 1", "0-7:2", "1.5", "99999999"})
    void anythingButNumbersAndAscendingRangesIsRefusedWithExamples(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuList.parse(text));
        assertEquals("'" + text + "' is not a CPU list (examples: 0, 0-1, 0,2)", e.getMessage());
    }

    @Test
    void cpusMissingFromAnotherListAreNamedInOrder() {
        assertEquals(List.of(2, 7), CpuList.parse("0-2,7").missingFrom(CpuList.parse("0-1")));
    }
}
