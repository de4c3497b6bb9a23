package dev.msgbench.kafka.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** ProducerPerformance's output as it printed it, in runs of scripts/compare-native. */
class ProducerPerformanceOutputTest {

    private static final String FINISHED = """
            208084 records sent, 40736.9 records/sec (3.88 MB/sec), 4938.7 ms avg latency, 5462.0 ms max latency.
            500000 records sent, 26906.312221 records/sec (2.57 MB/sec), 4484.25 ms avg latency, 5462.00 ms max latency, \
            4649 ms 50th, 5327 ms 95th, 5415 ms 99th, 5441 ms 99.9th.
            """;

    private static final String WITH_WARMUP = """
            Warmup first 100000 records. Steady state results will print after the complete test summary.
            300000 records sent, 108499.095841 records/sec (10.35 MB/sec), 1032.00 ms avg latency, 1211.00 ms max latency, \
            1106 ms 50th, 1187 ms 95th, 1205 ms 99th, 1209 ms 99.9th.
            200000 steady state records sent, 111358.574610 records/sec (10.62 MB/sec), 1130.54 ms avg latency, \
            1211.00 ms max latency, 1120 ms 50th, 1188 ms 95th, 1206 ms 99th, 1209 ms 99.9th.
            """;

    @Test
    void theRateIsTheFinalLinesNotAProgressLines() {
        assertEquals(Optional.of("26906.312221"), ProducerPerformanceOutput.finalRate(FINISHED));
    }

    @Test
    void aRunKilledBeforeItsFinalLineHasNoRate() {
        assertEquals(Optional.empty(), ProducerPerformanceOutput.finalRate(
                "208084 records sent, 40736.9 records/sec (3.88 MB/sec), 4938.7 ms avg latency, 5462.0 ms max latency.\n"));
    }

    @Test
    void afterAWarmupTheSteadyStateLineGivesTheRateAndTheWholeRunsLineStaysReadable() {
        assertEquals(Optional.of("111358.574610"), ProducerPerformanceOutput.steadyRate(WITH_WARMUP));
        assertEquals(Optional.of("108499.095841"), ProducerPerformanceOutput.finalRate(WITH_WARMUP));
        assertEquals(Optional.empty(), ProducerPerformanceOutput.steadyRate(FINISHED));
    }
}
