package dev.msgbench.pulsar.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.system.NativeFigure;

/** pulsar-perf produce's output as it printed it (4.0.8 on the 4.0.7 client, against the suite's standalone). */
class PerformanceProducerOutputTest {

    @Test
    void aColdRateIsTheAskedMessagesFromTheProducersCreationToTheDoneLineNotTheFinalLinesRate() {
        // Created 1 producers at 18:52:36.781, DONE (1000000) at 18:52:39.745: 2.964 s. The final
        // line says 109875.789 msg/s: 1099429 messages over the 10.006 s to the shutdown at the next tick
        assertEquals(Optional.of("337381.916"), PerformanceProducerOutput.coldRate(Fixtures.output("producer-cold.log")));
    }

    @Test
    void aWarmRateIsFromTheFirstProgressLinePastTheWarmupToTheDoneLine() {
        // 3,000,000 warm-up and 12,000,000 measured: 3688109 acknowledged at 18:56:21.033, 15000000 at
        // the DONE line, 18:57:26.492; all of it from the producers' creation, 18:55:52.428
        assertEquals(Optional.of(new NativeFigure(new BigDecimal("172808.796"), new BigDecimal("94.064"))),
                PerformanceProducerOutput.steadyFigure(Fixtures.output("producer-warm.log"), 3_000_000));
    }

    @Test
    void aWarmRunWhoseWindowHoldsLessThanHalfTheMeasuredMessagesGivesNoFigure() {
        // 3,000,000 warm-up and 4,000,000 measured: the first progress line past the warm-up counts
        // 5452044, which leaves 1547956 to the DONE line, fewer than 2,000,000
        assertEquals(Optional.empty(), PerformanceProducerOutput.steadyFigure(Fixtures.output("producer-short-warm.log"),
                3_000_000));
    }

    @Test
    void aKilledRunGivesNoFigureThoughItsShutdownHookPrintedAFinalLine() {
        String killed = Fixtures.output("producer-killed.log");

        assertEquals(Optional.empty(), PerformanceProducerOutput.coldRate(killed));
        assertEquals(Optional.empty(), PerformanceProducerOutput.steadyFigure(killed, 0));
    }
}
