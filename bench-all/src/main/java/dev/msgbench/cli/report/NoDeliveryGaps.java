package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.record.HistogramKind;

/**
 * The spans of a run in which nothing was delivered while messages were due: whole intervals of
 * latency.hlog that received nothing, after the first delivery, while some message sent up to the
 * interval's end was not delivered yet. A killed leader or a paused broker shows as one; a
 * consumer that starts late (--backlog, --consume-after-produce) does not, since nothing had
 * arrived yet, nor does a quiet second of a slow schedule with nothing outstanding.
 *
 * <p>The spans are as fine as the log's intervals (a second): the fault report's "no delivery"
 * figure is the exact length, from the receive times.
 */
final class NoDeliveryGaps {

    /** The last interval of a run is a fraction of a second: an empty one is the end, not an outage. */
    static final double MIN_INTERVAL_SECONDS = 0.5;

    /** One span, in seconds from the log's StartTime. */
    record Span(double fromSeconds, double toSeconds) {
    }

    private NoDeliveryGaps() {
    }

    static List<Span> of(IntervalSeries series) {
        List<IntervalSeries.Interval> received = series.of(HistogramKind.LATENCY);
        List<IntervalSeries.Interval> sent = series.of(HistogramKind.SEND_DELAY);
        List<Span> spans = new ArrayList<>();
        long sentSoFar = 0;
        long receivedSoFar = 0;
        int nextSent = 0;
        for (IntervalSeries.Interval interval : received) {
            double end = interval.startSeconds() + interval.lengthSeconds();
            // the send-delay intervals are written with the latency ones: same start, same end
            while (nextSent < sent.size() && sent.get(nextSent).startSeconds() < end - 1e-6) {
                sentSoFar += sent.get(nextSent++).count();
            }
            // a log without send-delay (none written) cannot say what was due: between deliveries is
            boolean due = sent.isEmpty() ? receivedSoFar > 0 && laterDelivery(received, interval)
                    : sentSoFar > receivedSoFar;
            if (interval.count() == 0 && receivedSoFar > 0 && due && interval.lengthSeconds() >= MIN_INTERVAL_SECONDS) {
                add(spans, interval.startSeconds(), end);
            }
            receivedSoFar += interval.count();
        }
        return spans;
    }

    private static boolean laterDelivery(List<IntervalSeries.Interval> received, IntervalSeries.Interval after) {
        return received.stream().anyMatch(i -> i.startSeconds() > after.startSeconds() && i.count() > 0);
    }

    /** Adjacent empty intervals are one gap. */
    private static void add(List<Span> spans, double from, double to) {
        if (!spans.isEmpty() && spans.get(spans.size() - 1).toSeconds() >= from - 1e-3) {
            spans.set(spans.size() - 1, new Span(spans.get(spans.size() - 1).fromSeconds(), to));
        } else {
            spans.add(new Span(from, to));
        }
    }
}
