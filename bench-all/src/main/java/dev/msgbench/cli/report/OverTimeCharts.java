package dev.msgbench.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.fault.FaultReport;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.BacklogFigures;

/**
 * A run's charts over time, latency and throughput, on one {@link TimeBase}: seconds from the
 * end of the warm-up, as its faults count them. A second in which nothing was delivered breaks
 * the latency lines (there is no latency to draw, and a line across it would hide the outage)
 * and is shaded on both charts as "no delivery".
 */
public final class OverTimeCharts {

    static final String NO_DELIVERY = "no delivery";
    /** Translucent, so a line drawn through the gap (what was sent) stays visible. */
    private static final Color GAP_FILL = new Color(0xD5, 0x5E, 0x00, 0x30);

    private OverTimeCharts() {
    }

    /** Where a fault was asked, or a backlog phase, on the charts' time base, and its label. */
    record FaultMarker(double seconds, String label) {
    }

    /** p50, p99 and max of each second of one run, warm-up included and marked. */
    public static Charts.Chart latencyOverTime(RunFolder run, int index) {
        XYChart chart = chart((run.roundTrip() ? "Round-trip latency" : "Latency") + " over time: " + run.label(),
                "latency (ms)");
        chart.getStyler().setYAxisLogarithmic(true);
        TimeBase time = TimeBase.of(run);
        List<IntervalSeries.Interval> intervals = run.intervals().of(HistogramKind.LATENCY);
        Color base = Charts.color(index);
        addIntervals(chart, time, "max", intervals, IntervalSeries.Interval::maxMs, base.darker(), SeriesLines.DOT_DOT);
        addIntervals(chart, time, "p99", intervals, IntervalSeries.Interval::p99Ms, base, SeriesLines.DASH_DASH);
        addIntervals(chart, time, "p50", intervals, IntervalSeries.Interval::p50Ms, base, SeriesLines.SOLID);
        return finish(chart, run, time, String.format(Locale.US, "latency-over-time-%02d", index + 1));
    }

    /**
     * Messages per second sent by the publishers and received by the consumers, each second; where
     * the run counted its intervals (intervals.csv), also those acknowledged, and how many were
     * sent and not received at each second's end, so an outage shows: sent going on, received at 0,
     * unreceived climbing.
     */
    public static Charts.Chart throughputOverTime(RunFolder run, int index) {
        XYChart chart = chart("Throughput over time: " + run.label(), "messages per second");
        chart.getStyler().setYAxisMin(0.0);
        TimeBase time = TimeBase.of(run);
        List<IntervalSeries.Counts> counts = run.intervals().counts();
        Color color = Charts.color(index);
        if (counts.isEmpty()) {
            addIntervals(chart, time, "sent (publishers)", run.intervals().of(HistogramKind.SEND_DELAY),
                    IntervalSeries.Interval::ratePerSecond, color, SeriesLines.SOLID);
            addIntervals(chart, time, "received (consumers)", run.intervals().of(HistogramKind.LATENCY),
                    IntervalSeries.Interval::ratePerSecond, color.darker(), SeriesLines.DASH_DASH);
        } else {
            addCounts(chart, time, "sent (publishers)", counts, c -> c.perSecond(c.sent()), color, SeriesLines.SOLID);
            if (counts.stream().anyMatch(c -> c.acknowledged() > 0)) {
                addCounts(chart, time, "acknowledged", counts, c -> c.perSecond(c.acknowledged()), color.darker(),
                        SeriesLines.DOT_DOT);
            }
            addCounts(chart, time, "received (consumers)", counts, c -> c.perSecond(c.received()), color.darker(),
                    SeriesLines.DASH_DASH);
            addCounts(chart, time, "sent, not received (at the second's end)", counts, c -> c.unreceived(),
                    new Color(0xD55E00), SeriesLines.SOLID);
        }
        TargetRate target = run.whole() ? TargetRate.of(run.result().workload()) : null;
        if (target != null) {
            // beside what was sent, so a second that fell short of the schedule shows
            addIntervals(chart, time, "target (--rate-schedule)", run.intervals().of(HistogramKind.SEND_DELAY),
                    i -> target.perSecond(i.startSeconds(), i.lengthSeconds()), Color.GRAY, SeriesLines.DOT_DOT);
        }
        return finish(chart, run, time, String.format(Locale.US, "throughput-over-time-%02d", index + 1));
    }

    private static XYChart chart(String title, String yAxis) {
        XYChart chart = new XYChartBuilder().width(Charts.WIDTH).height(Charts.SMALL_HEIGHT).title(title)
                .xAxisTitle(TimeBase.AXIS_TITLE).yAxisTitle(yAxis).build();
        Charts.style(chart);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        return chart;
    }

    private static Charts.Chart finish(XYChart chart, RunFolder run, TimeBase time, String fileStem) {
        shadeGaps(chart, run);
        markWarmup(chart, time);
        markFaults(chart, run, time);
        return new Charts.Chart(fileStem, chart.getTitle(), chart);
    }

    /** The run's faults as result.json has them: their times count from the end of the warm-up already. */
    static List<FaultMarker> faultMarkers(RunFolder run) {
        List<FaultMarker> markers = new ArrayList<>();
        for (FaultReport fault : run.whole() ? run.result().faults() : List.<FaultReport>of()) {
            FaultEvent e = fault.event();
            // a power cut of every node has no one node: "power-loss all"
            String node = e.node() != null ? " n" + e.node() : e.everyNode() ? " all" : "";
            markers.add(new FaultMarker(e.askedAtSeconds(), e.kind() + node));
        }
        return markers;
    }

    /** Where the consumers were released and where they had drained the backlog (--backlog); none without one. */
    static List<FaultMarker> backlogMarkers(RunFolder run) {
        BacklogFigures backlog = run.whole() ? run.result().backlog() : null;
        if (backlog == null) {
            return List.of();
        }
        // the backlog's times count from the log's start
        TimeBase time = TimeBase.of(run);
        List<FaultMarker> markers = new ArrayList<>();
        markers.add(new FaultMarker(time.fromLog(backlog.releasedAtSeconds()), "released"));
        if (backlog.drainedAtSeconds() != null) {
            markers.add(new FaultMarker(time.fromLog(backlog.drainedAtSeconds()), "drained"));
        }
        return markers;
    }

    private static void addIntervals(XYChart chart, TimeBase time, String name, List<IntervalSeries.Interval> intervals,
                                     ToDoubleFunction<IntervalSeries.Interval> value, Color color, BasicStroke line) {
        add(chart, time, name, intervals, IntervalSeries.Interval::startSeconds, IntervalSeries.Interval::lengthSeconds,
                value, color, line);
    }

    private static void addCounts(XYChart chart, TimeBase time, String name, List<IntervalSeries.Counts> counts,
                                  ToDoubleFunction<IntervalSeries.Counts> value, Color color, BasicStroke line) {
        add(chart, time, name, counts, IntervalSeries.Counts::startSeconds, IntervalSeries.Counts::lengthSeconds, value,
                color, line);
    }

    /**
     * One point per interval, at its middle; the value of each from {@code value}. An interval
     * without a value (NaN: nothing received in it) is kept as NaN, where XChart breaks the line.
     */
    private static <T> void add(XYChart chart, TimeBase time, String name, List<T> intervals, ToDoubleFunction<T> start,
                                ToDoubleFunction<T> length, ToDoubleFunction<T> value, Color color, BasicStroke line) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        boolean logarithmic = chart.getStyler().isYAxisLogarithmic();
        for (T i : intervals) {
            // the last interval of a run is a fraction of a second: its rate would be noise
            if (length.applyAsDouble(i) >= NoDeliveryGaps.MIN_INTERVAL_SECONDS) {
                double y = value.applyAsDouble(i);
                xs.add(time.fromLog(start.applyAsDouble(i) + length.applyAsDouble(i) / 2));
                ys.add(logarithmic && !Double.isNaN(y) ? Math.max(y, Charts.FLOOR_MS) : y);
            }
        }
        if (xs.size() > Charts.MAX_POINTS) {
            // a day of seconds: the highest of each bucket on a latency axis, so that a spike stays visible
            ChartPoints thinned = ChartPoints.thin(xs, ys, Charts.MAX_POINTS, logarithmic);
            xs = thinned.xs();
            ys = thinned.ys();
        }
        if (ys.stream().anyMatch(y -> !y.isNaN())) {
            XYSeries series = chart.addSeries(name, xs, ys);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(color);
            series.setLineColor(color);
            series.setLineStyle(line);
        }
    }

    /** Each of the run's gaps as a translucent band over the plot's height, labelled. */
    private static void shadeGaps(XYChart chart, RunFolder run) {
        if (!chart.getSeriesMap().isEmpty()) {
            gapBands(run).forEach(chart::addAnnotation);
        }
    }

    /** The bands {@link #shadeGaps} draws, on the charts' time base. */
    static List<SpanBand> gapBands(RunFolder run) {
        TimeBase time = TimeBase.of(run);
        return NoDeliveryGaps.of(run.intervals()).stream().map(gap -> new SpanBand(time.fromLog(gap.fromSeconds()),
                time.fromLog(gap.toSeconds()), NO_DELIVERY, GAP_FILL)).toList();
    }

    /** The highest value drawn, NaN (a gap) left out. */
    private static double top(XYChart chart) {
        return chart.getSeriesMap().values().stream().flatMapToDouble(s -> Arrays.stream(s.getYData()))
                .filter(y -> !Double.isNaN(y)).max().orElse(1);
    }

    /** A line where each fault was asked, labelled with its kind and node at the top of the chart; so the backlog's phases. */
    private static void markFaults(XYChart chart, RunFolder run, TimeBase time) {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        double top = top(chart);
        List<FaultMarker> markers = new ArrayList<>(faultMarkers(run));
        markers.addAll(backlogMarkers(run));
        for (FaultMarker marker : markers) {
            chart.addAnnotation(new AnnotationLine(marker.seconds(), true, false));
            chart.addAnnotation(new AnnotationText(marker.label(), marker.seconds(), top, false));
        }
    }

    /** The axis starts at the log's start, the warm-up negative; a grey line at 0 where the measured window starts. */
    private static void markWarmup(XYChart chart, TimeBase time) {
        chart.getStyler().setXAxisMin(time.start());
        if (time.warmupSeconds() > 0 && !chart.getSeriesMap().isEmpty()) {
            chart.addAnnotation(new AnnotationLine(0, true, false));
            chart.setTitle(chart.getTitle() + String.format(Locale.US, " (warm-up: the %.1f s before the grey line at 0)",
                    time.warmupSeconds()));
            chart.getStyler().setAnnotationLineColor(new Color(0x888888))
                    .setAnnotationLineStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                            new float[] {6, 4}, 0));
        }
    }
}
