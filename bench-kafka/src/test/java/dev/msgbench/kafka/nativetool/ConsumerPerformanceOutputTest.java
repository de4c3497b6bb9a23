package dev.msgbench.kafka.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** ConsumerPerformance's output as it printed it, in runs of scripts/compare-native. */
class ConsumerPerformanceOutputTest {

    private static final String HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n";
    private static final String DETAILED_HEADER = "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n";
    private static final String TIMED_OUT = "WARNING: Exiting before consuming the expected number of records: timeout "
            + "(2000 ms) exceeded. You can use the --timeout option to increase the timeout.\n";

    @Test
    void theRateIsFetchMsgsPerSecTheRateAfterTheGroupJoin() {
        assertEquals(Optional.of("414937.7593"), ConsumerPerformanceOutput.fetchRate(HEADER + """
                2026-11-25 03:47:53:100, 2026-11-25 03:47:54:329, 19.0735, 15.5195, 200000, 162733.9300, 747, 482, \
                39.5715, 414937.7593
                """));
    }

    @Test
    void progressLinesBeforeTheFinalOneAreNotTheFigure() {
        assertEquals(Optional.of("597014.9254"), ConsumerPerformanceOutput.fetchRate(DETAILED_HEADER + """
                2026-11-25 03:47:55:725, 0, 0.0001, 0.0002, 1, 2.5707, 371, 18, 0.0053, 55.5556
                2026-11-25 03:47:55:925, 0, 12.4562, 62.2807, 130613, 653060.0000, 0, 200, 62.2807, 653060.0000
                """ + HEADER + """
                2026-11-25 03:47:56:873, 2026-11-25 03:47:57:532, 19.0735, 28.9431, 200000, 303490.1366, 324, 335, \
                56.9358, 597014.9254
                """));
    }

    @Test
    void aRunThatTimedOutReadFewerRecordsAndHasNoFigure() {
        assertEquals(Optional.empty(), ConsumerPerformanceOutput.fetchRate(HEADER + TIMED_OUT + """
                2026-11-25 03:53:28:777, 2026-11-25 03:53:33:398, 4.7684, 1.0319, 50000, 10820.1688, 1685, 2936, 1.6241, \
                17029.9728
                """));
    }

    @Test
    void afterAWarmupTheRateRunsFromTheFirstLinePastItToTheLast() {
        // the first line counts 642540 < 3000000: left out; 3589825 -> 7046633 records in 1 s
        assertEquals(Optional.of("3456808.0000"), ConsumerPerformanceOutput.steadyRate(DETAILED_HEADER + """
                2026-11-26 06:56:40:179, 0, 61.2774, 61.2774, 642540, 642540.0000, 365, 635, 96.4998, 1011874.0157
                2026-11-26 06:56:41:179, 0, 342.3524, 281.0750, 3589825, 2947285.0000, 0, 1000, 281.0750, 2947285.0000
                2026-11-26 06:56:42:179, 0, 672.0193, 329.6669, 7046633, 3456808.0000, 0, 1000, 329.6669, 3456808.0000
                """, 3_000_000));
    }

    @Test
    void aWindowAcrossMidnightCountsItsRealLength() {
        assertEquals(Optional.of("4000.0000"), ConsumerPerformanceOutput.steadyRate("""
                2026-11-25 23:59:59:650, 0, 0.0001, 0.0002, 10, 2.5707, 371, 18, 0.0053, 55.5556
                2026-11-25 23:59:59:900, 0, 0.0953, 0.3815, 1000, 4000.0000, 0, 250, 0.3815, 4000.0000
                2026-11-26 00:00:00:150, 0, 0.1907, 0.3815, 2000, 4000.0000, 0, 250, 0.3815, 4000.0000
                """, 100));
    }

    @Test
    void oneLinePastTheWarmupIsNoWindow() {
        assertEquals(Optional.empty(), ConsumerPerformanceOutput.steadyRate("""
                2026-11-26 06:56:40:179, 0, 61.2774, 61.2774, 642540, 642540.0000, 365, 635, 96.4998, 1011874.0157
                2026-11-26 06:56:41:179, 0, 342.3524, 281.0750, 3589825, 2947285.0000, 0, 1000, 281.0750, 2947285.0000
                """, 3_000_000));
    }

    @Test
    void aWarmRunThatTimedOutHasNoFigure() {
        assertEquals(Optional.empty(), ConsumerPerformanceOutput.steadyRate(TIMED_OUT + """
                2026-11-25 23:59:59:900, 0, 0.0953, 0.3815, 1000, 4000.0000, 0, 250, 0.3815, 4000.0000
                2026-11-26 00:00:00:150, 0, 0.1907, 0.3815, 2000, 4000.0000, 0, 250, 0.3815, 4000.0000
                """, 100));
    }
}
