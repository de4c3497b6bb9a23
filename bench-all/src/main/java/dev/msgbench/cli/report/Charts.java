package dev.msgbench.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
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
 * The report's charts, drawn by XChart. Axes follow HdrHistogram's plotter: latency in ms on a
 * log axis; percentile on a 1/(1-p) log axis whose decades are 0%, 90%, 99%, 99.9%...
 */
public final class Charts {

    /** The percentiles the HdrHistogram plotter draws a line at. */
    static final double[] GRIDLINE_PERCENTILES = {50, 90, 99, 99.9, 99.99, 99.999};

    /**
     * A log axis cannot show 0, and a .hgrm prints values in ms with 3 decimals, so a latency
     * under 0.5 us reads 0.000: drawn at 1 us instead.
     */
    static final double FLOOR_MS = 0.001;

    /** Distinct, colour-blind-friendly (Okabe-Ito), so curves of several systems stay apart. */
    private static final Color[] PALETTE = {
            new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
            new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0xF0E442)};

    private static final double MIN_INTERVAL_SECONDS = 0.5;
    /** Points per series at most: a day of seconds is thinned to this many (see ChartPoints). */
    static final int MAX_POINTS = 2000;
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 620;
    private static final int SMALL_HEIGHT = 380;

    private Charts() {
    }

    /** A chart and the file stem it is saved under. */
    public record Chart(String fileStem, String title, XYChart xchart) {
    }

    static Color color(int index) {
        return PALETTE[index % PALETTE.length];
    }

    /**
     * Response time (from the intended send) of every run by percentile; with {@code service},
     * each run's service time (from the actual send) beside it, dashed in the same colour.
     */
    public static Chart percentiles(List<RunFolder> runs, boolean service) {
        return percentiles(runs, service, null, "latency-by-percentile", List.of());
    }

    /**
     * As {@link #percentiles(List, boolean)} for the runs of one setting: {@code setting} names
     * it in the title, each curve is named by its system and coloured by the system's place in
     * {@code systems}, so a system keeps its colour on every chart of the page.
     */
    public static Chart percentiles(List<RunFolder> runs, boolean service, String setting, String fileStem,
                                    List<String> systems) {
        String what = service ? "response time (solid) and service time (dashed)" : "response time, from the intended send";
        boolean allRoundTrips = runs.stream().allMatch(RunFolder::roundTrip);
        String latency = allRoundTrips && !runs.isEmpty() ? "Round-trip latency" : "Latency";
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(setting == null ? latency + " by percentile (" + what + ")"
                        : latency + " by percentile, " + setting + " (" + what + ")")
                .xAxisTitle("percentile").yAxisTitle("latency (ms)").build();
        style(chart);
        Styler styler = chart.getStyler();
        // x is log10(1/(1-p)) on a linear axis, its numbers hidden and the percentiles written at
        // their gridlines instead: XChart 3.8.8's tick calculator can loop forever when given a
        // tick label function, so none is given
        chart.getStyler().setYAxisLogarithmic(true).setXAxisTicksVisible(false);
        chart.getStyler().setLegendPosition(runs.size() > 8 ? Styler.LegendPosition.OutsideS : Styler.LegendPosition.OutsideE)
                .setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setLegendSeriesLineLength(32);
        double maxDecades = 1;
        for (int i = 0; i < runs.size(); i++) {
            RunFolder run = runs.get(i);
            boolean bySystem = setting != null;
            String label = run.roundTrip() && !allRoundTrips ? run.label() + " (round trip)" : run.label();
            String name = seriesName(chart, bySystem ? run.result().system() : label, label, i);
            Color color = bySystem ? color(Math.max(0, systems.indexOf(run.result().system()))) : color(i);
            maxDecades = Math.max(maxDecades, add(chart, name, run.latency(), color, false));
            if (service) {
                add(chart, name + " (service)", run.service(), color, true);
            }
        }
        double decades = Math.ceil(maxDecades - 1e-9);
        chart.getStyler().setXAxisMin(0.0).setXAxisMax(decades);
        double top = chart.getSeriesMap().values().stream().mapToDouble(XYSeries::getYMax).max().orElse(1);
        chart.addAnnotation(new AnnotationText("0%", 0.04 * decades, top, false));
        for (double p : GRIDLINE_PERCENTILES) {
            double x = Math.log10(inverseTail(p));
            if (x <= decades) {
                chart.addAnnotation(gridline(x));
                chart.addAnnotation(new AnnotationText(axisLabel(x), x + 0.07 * decades / 6, top, false));
            }
        }
        return new Chart(fileStem, chart.getTitle(), chart);
    }

    /**
     * The name a curve goes by: {@code preferred} (its system on a chart of one setting) unless
     * another curve has it already, as when several cells of one system share a setting (E2's
     * three JetStream storages); then the cell's own label, which XChart needs unique too.
     */
    private static String seriesName(XYChart chart, String preferred, String label, int index) {
        if (!chart.getSeriesMap().containsKey(preferred)) {
            return preferred;
        }
        return chart.getSeriesMap().containsKey(label) ? label + " (" + (index + 1) + ")" : label;
    }

    /** p50, p99 and max of each second of one run, warm-up included and marked. */
    public static Chart latencyOverTime(RunFolder run, int index) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(SMALL_HEIGHT)
                .title((run.roundTrip() ? "Round-trip latency" : "Latency") + " over time: " + run.label())
                .xAxisTitle("seconds from start").yAxisTitle("latency (ms)").build();
        style(chart);
        chart.getStyler().setYAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.OutsideE);
        List<IntervalSeries.Interval> intervals = run.intervals().of(HistogramKind.LATENCY);
        Color base = color(index);
        addTimeSeries(chart, "max", intervals, IntervalSeries.Interval::maxMs, base.darker(), SeriesLines.DOT_DOT);
        addTimeSeries(chart, "p99", intervals, IntervalSeries.Interval::p99Ms, base, SeriesLines.DASH_DASH);
        addTimeSeries(chart, "p50", intervals, IntervalSeries.Interval::p50Ms, base, SeriesLines.SOLID);
        markWarmup(chart, run);
        markFaults(chart, run);
        return new Chart(String.format(Locale.US, "latency-over-time-%02d", index + 1), chart.getTitle(), chart);
    }

    /**
     * Messages per second sent by the publishers and received by the consumers, each second; where
     * the run counted its intervals (intervals.csv), also those acknowledged, and how many were
     * sent and not received at each second's end, so an outage shows: sent going on, received at 0,
     * unreceived climbing.
     */
    public static Chart throughputOverTime(RunFolder run, int index) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(SMALL_HEIGHT)
                .title("Throughput over time: " + run.label())
                .xAxisTitle("seconds from start").yAxisTitle("messages per second").build();
        style(chart);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        List<IntervalSeries.Counts> counts = run.intervals().counts();
        if (counts.isEmpty()) {
            addTimeSeries(chart, "sent (publishers)", run.intervals().of(HistogramKind.SEND_DELAY),
                    IntervalSeries.Interval::ratePerSecond, color(index), SeriesLines.SOLID);
            addTimeSeries(chart, "received (consumers)", run.intervals().of(HistogramKind.LATENCY),
                    IntervalSeries.Interval::ratePerSecond, color(index).darker(), SeriesLines.DASH_DASH);
        } else {
            addCounts(chart, "sent (publishers)", counts, c -> c.perSecond(c.sent()), color(index), SeriesLines.SOLID);
            if (counts.stream().anyMatch(c -> c.acknowledged() > 0)) {
                addCounts(chart, "acknowledged", counts, c -> c.perSecond(c.acknowledged()), color(index).darker(),
                        SeriesLines.DOT_DOT);
            }
            addCounts(chart, "received (consumers)", counts, c -> c.perSecond(c.received()), color(index).darker(),
                    SeriesLines.DASH_DASH);
            addCounts(chart, "sent, not received (at the second's end)", counts, c -> c.unreceived(), new Color(0xD55E00),
                    SeriesLines.SOLID);
        }
        TargetRate target = TargetRate.of(run.result().workload());
        if (target != null) {
            // beside what was sent, so a second that fell short of the schedule shows
            addTimeSeries(chart, "target (--rate-schedule)", run.intervals().of(HistogramKind.SEND_DELAY),
                    i -> target.perSecond(i.startSeconds(), i.lengthSeconds()), Color.GRAY, SeriesLines.DOT_DOT);
        }
        markWarmup(chart, run);
        markFaults(chart, run);
        return new Chart(String.format(Locale.US, "throughput-over-time-%02d", index + 1), chart.getTitle(), chart);
    }

    /** Whether the chart has anything to draw (XChart refuses to draw a chart without series). */
    static boolean hasData(Chart chart) {
        return !chart.xchart().getSeriesMap().isEmpty();
    }

    static double inverseTail(double percentile) {
        return 1.0 / (1.0 - percentile / 100.0);
    }

    /** Decade ticks of the 1/(1-p) axis as the plotter labels them: 1 -> 0%, 10 -> 90%, 1000 -> 99.9%. */
    static String percentileLabel(double inverseTail) {
        long decades = Math.round(Math.log10(inverseTail));
        if (decades <= 0) {
            return "0%";
        }
        java.math.BigDecimal hundred = java.math.BigDecimal.valueOf(100);
        return hundred.subtract(hundred.movePointLeft((int) decades)).stripTrailingZeros().toPlainString() + "%";
    }

    /** A tick of the percentile axis at x = log10(1/(1-p)): labelled at whole decades only. */
    static String axisLabel(double decades) {
        double whole = Math.rint(decades);
        if (Math.abs(decades - whole) < 1e-6) {
            return percentileLabel(Math.pow(10, whole));
        }
        return Math.abs(decades - Math.log10(2)) < 1e-6 ? "50%" : "";
    }

    /** Adds a curve; returns how many decades of 1/(1-p) it reaches. */
    private static double add(XYChart chart, String name, PercentileCurve curve, Color color, boolean dashed) {
        if (curve.isEmpty()) {
            return 0;
        }
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (PercentileCurve.Point p : curve.points()) {
            xs.add(Math.log10(p.inverseTail()));
            ys.add(Math.max(p.valueMs(), FLOOR_MS));
        }
        XYSeries series = chart.addSeries(name, xs, ys);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(color);
        series.setLineStyle(dashed ? SeriesLines.DASH_DASH : new BasicStroke(2.2f));
        return xs.get(xs.size() - 1);
    }

    private static void addTimeSeries(XYChart chart, String name, List<IntervalSeries.Interval> intervals,
                                      ToDoubleFunction<IntervalSeries.Interval> value, Color color, BasicStroke line) {
        addTimeSeries(chart, name, intervals, IntervalSeries.Interval::startSeconds, IntervalSeries.Interval::lengthSeconds,
                value, color, line);
    }

    /** One point per interval, at its middle; the value of each from {@code value}, NaN for none. */
    private static <T> void addTimeSeries(XYChart chart, String name, List<T> intervals, ToDoubleFunction<T> start,
                                          ToDoubleFunction<T> length, ToDoubleFunction<T> value, Color color,
                                          BasicStroke line) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (T i : intervals) {
            double y = value.applyAsDouble(i);
            // the last interval of a run is a fraction of a second: its rate would be noise
            if (!Double.isNaN(y) && length.applyAsDouble(i) >= MIN_INTERVAL_SECONDS) {
                xs.add(start.applyAsDouble(i) + length.applyAsDouble(i) / 2);
                ys.add(chart.getStyler().isYAxisLogarithmic() ? Math.max(y, FLOOR_MS) : y);
            }
        }
        if (xs.size() > MAX_POINTS) {
            // a day of seconds: the highest of each bucket on a latency axis, so that a spike stays visible
            ChartPoints thinned = ChartPoints.thin(xs, ys, MAX_POINTS, chart.getStyler().isYAxisLogarithmic());
            xs = thinned.xs();
            ys = thinned.ys();
        }
        if (!xs.isEmpty()) {
            XYSeries series = chart.addSeries(name, xs, ys);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(color);
            series.setLineColor(color);
            series.setLineStyle(line);
        }
    }

    private static void addCounts(XYChart chart, String name, List<IntervalSeries.Counts> counts,
                                  ToDoubleFunction<IntervalSeries.Counts> value, Color color, BasicStroke line) {
        addTimeSeries(chart, name, counts, IntervalSeries.Counts::startSeconds, IntervalSeries.Counts::lengthSeconds, value,
                color, line);
    }

    /** Where a fault was asked, in seconds from the log's start (warm-up included), and its label. */
    record FaultMarker(double seconds, String label) {
    }

    /** The run's faults as result.json has them, placed on the over-time charts' axis. */
    static List<FaultMarker> faultMarkers(RunFolder run) {
        double warmup = run.intervals().warmupSeconds();
        List<FaultMarker> markers = new ArrayList<>();
        for (FaultReport fault : run.result().faults()) {
            FaultEvent e = fault.event();
            String node = e.node() != null ? " n" + e.node() : e.powerCuts() != null ? " all" : "";
            markers.add(new FaultMarker(warmup + e.askedAtSeconds(), e.kind() + node));
        }
        return markers;
    }

    /** Where the consumers were released and where they had drained the backlog (--backlog); none without one. */
    static List<FaultMarker> backlogMarkers(RunFolder run) {
        BacklogFigures backlog = run.result().backlog();
        if (backlog == null) {
            return List.of();
        }
        List<FaultMarker> markers = new ArrayList<>();
        // the backlog's times count from the log's start already
        markers.add(new FaultMarker(backlog.releasedAtSeconds(), "released"));
        if (backlog.drainedAtSeconds() != null) {
            markers.add(new FaultMarker(backlog.drainedAtSeconds(), "drained"));
        }
        return markers;
    }

    /** A line where each fault was asked, labelled with its kind and node at the top of the chart; so the backlog's phases. */
    private static void markFaults(XYChart chart, RunFolder run) {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        double top = chart.getSeriesMap().values().stream()
                .flatMapToDouble(s -> java.util.Arrays.stream(s.getYData())).max().orElse(1);
        List<FaultMarker> markers = new ArrayList<>(faultMarkers(run));
        markers.addAll(backlogMarkers(run));
        for (FaultMarker marker : markers) {
            chart.addAnnotation(new AnnotationLine(marker.seconds(), true, false));
            chart.addAnnotation(new AnnotationText(marker.label(), marker.seconds(), top, false));
        }
    }

    private static void markWarmup(XYChart chart, RunFolder run) {
        double warmup = run.intervals().warmupSeconds();
        chart.getStyler().setXAxisMin(0.0);
        if (warmup > 0 && !chart.getSeriesMap().isEmpty()) {
            chart.addAnnotation(new AnnotationLine(warmup, true, false));
            chart.setTitle(chart.getTitle() + String.format(Locale.US, " (warm-up until the grey line, %.1f s)", warmup));
            chart.getStyler().setAnnotationLineColor(new Color(0x888888))
                    .setAnnotationLineStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                            new float[] {6, 4}, 0));
        }
    }

    private static AnnotationLine gridline(double x) {
        return new AnnotationLine(x, true, false);
    }

    private static void style(XYChart chart) {
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendBorderColor(new Color(0xCCCCCC));
        styler.setAntiAlias(true);
        chart.getStyler().setPlotGridLinesColor(new Color(0xE4E4E4)).setAnnotationLineColor(new Color(0xAAAAAA));
        chart.getStyler().setAxisTickLabelsColor(Color.DARK_GRAY);
    }
}
