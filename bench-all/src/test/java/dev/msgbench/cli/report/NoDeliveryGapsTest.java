package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.record.HistogramKind;

/** Which seconds of a run count as "no delivery": nothing received while something was due. */
class NoDeliveryGapsTest {

    @Test
    void secondsWithoutADeliveryWhileMessagesWereSentAreOneGap() {
        assertEquals(List.of(new NoDeliveryGaps.Span(1, 3)), gaps(new long[] {10, 0, 0, 30}, new long[] {10, 10, 10, 0}));
    }

    @Test
    void anOutageThatLastsToTheEndIsAGapToo() {
        assertEquals(List.of(new NoDeliveryGaps.Span(1, 3)), gaps(new long[] {10, 0, 0}, new long[] {10, 10, 10}));
    }

    @Test
    void aQuietSecondOfASlowScheduleWithNothingOutstandingIsNone() {
        assertEquals(List.of(), gaps(new long[] {1, 0, 1, 0}, new long[] {1, 0, 1, 0}));
    }

    @Test
    void consumersThatStartLateMakeNoGapBeforeTheirFirstDelivery() {
        // --consume-after-produce, --backlog: nothing had arrived yet, by design
        assertEquals(List.of(), gaps(new long[] {0, 0, 30}, new long[] {10, 10, 10}));
    }

    @Test
    void theLastFractionOfASecondIsTheRunsEndNotAnOutage() {
        IntervalSeries series = series(new long[] {10, 0}, new long[] {10, 10}, 0.2);

        assertEquals(List.of(), NoDeliveryGaps.of(series));
    }

    @Test
    void aLogWithoutSendsCountsTheSecondsBetweenDeliveries() {
        assertEquals(List.of(new NoDeliveryGaps.Span(1, 2)), gaps(new long[] {10, 0, 10, 0}, new long[0]));
    }

    private static List<NoDeliveryGaps.Span> gaps(long[] received, long[] sent) {
        return NoDeliveryGaps.of(series(received, sent, 1));
    }

    /** One-second intervals, the last {@code lastLength} long. */
    private static IntervalSeries series(long[] received, long[] sent, double lastLength) {
        Map<HistogramKind, List<IntervalSeries.Interval>> byKind = new EnumMap<>(HistogramKind.class);
        byKind.put(HistogramKind.LATENCY, intervals(received, lastLength));
        if (sent.length > 0) {
            byKind.put(HistogramKind.SEND_DELAY, intervals(sent, lastLength));
        }
        return new IntervalSeries(0, byKind, List.of());
    }

    private static List<IntervalSeries.Interval> intervals(long[] counts, double lastLength) {
        List<IntervalSeries.Interval> intervals = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            double value = counts[i] == 0 ? Double.NaN : 1.0;
            intervals.add(new IntervalSeries.Interval(i, i == counts.length - 1 ? lastLength : 1, counts[i], value, value,
                    value));
        }
        return intervals;
    }
}
