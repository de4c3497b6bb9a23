package dev.msgbench.pulsar.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** pulsar-perf consume's output as it printed it (4.0.8 on the 4.0.7 client, against the suite's standalone). */
class PerformanceConsumerOutputTest {

    @Test
    void aColdRateIsTheFinalLinesOnceTheRunReachedItsDoneLine() {
        assertEquals(Optional.of("265865.720"), PerformanceConsumerOutput.coldRate(Fixtures.output("consumer-cold.log")));
    }

    @Test
    void aWarmRateIsFromTheFirstProgressLinePastTheWarmupToTheDoneLine() {
        // 3,000,000 warm-up and 12,000,000 measured: 5045654 received at 18:59:05.616, 15000000 at the
        // DONE line, 18:59:21.288 (its final line: 578255.747 msg/s, the warm-up included)
        assertEquals(Optional.of("635167.560"),
                PerformanceConsumerOutput.steadyRate(Fixtures.output("consumer-warm.log"), 3_000_000));
    }

    @Test
    void aWarmRunWhoseWindowHoldsLessThanHalfTheMeasuredMessagesGivesNoFigure() {
        // 3,000,000 warm-up and 4,000,000 measured: the progress line at 6627628 leaves 372372 in 339 ms
        assertEquals(Optional.empty(), PerformanceConsumerOutput.steadyRate(Fixtures.output("consumer-short-warm.log"),
                3_000_000));
    }

    @Test
    void aKilledRunGivesNoFigureThoughItsShutdownHookPrintedAFinalLine() {
        String killed = Fixtures.output("consumer-killed.log");

        assertEquals(Optional.empty(), PerformanceConsumerOutput.coldRate(killed));
        assertEquals(Optional.empty(), PerformanceConsumerOutput.steadyRate(killed, 0));
    }
}
