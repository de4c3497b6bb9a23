package dev.msgbench.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Latency against offered load from sweeps: for each line (a system at one durability setting),
 * p50, p99 and p99.9 at each rate it was asked for, the median of the runs at that rate drawn as
 * a line and each run as a cross, so the spread of the repeats shows; the knee a labelled
 * vertical line, the objective a horizontal one. Latency is on a log axis (past the knee it grows
 * by orders), and so is the rate where the sweep spans more than a decade of rates (it doubles them).
 */
final class LoadCharts {

    static final String FILE_STEM = "latency-against-offered-load";
    private static final BasicStroke P99 = new BasicStroke(2.2f);
    private static final double DECADE = 10;
    /** Room beside the lowest and highest rate, so their crosses are not on the frame. */
    private static final double MARGIN = 1.25;
    /** Each knee's label a step lower than the one before, on the log axis, so that labels of near knees do not overlap. */
    private static final double LABEL_STEP = 1.6;

    private LoadCharts() {
    }

    static Charts.Chart latencyAgainstLoad(List<LoadCurve> curves, Map<DurabilityCell, String> labels) {
        boolean legendBelow = curves.size() > 6;
        XYChart chart = new XYChartBuilder().width(Charts.WIDTH).height(Charts.height(curves.size(), legendBelow))
                .title("Latency against offered load (lines: the median of the runs at each rate, p99 solid, p99.9 dashed,"
                        + " p50 dotted; x: each run)")
                .xAxisTitle("offered load, messages per second (the rate each run was asked for)")
                .yAxisTitle("latency from the intended send (ms)").build();
        Charts.style(chart);
        chart.getStyler().setYAxisLogarithmic(true).setXAxisDecimalPattern("#,###")
                .setLegendPosition(legendBelow ? Styler.LegendPosition.OutsideS : Styler.LegendPosition.OutsideE)
                .setLegendLayout(Styler.LegendLayout.Vertical).setMarkerSize(7);
        List<String> names = names(curves, labels);
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int i = 0; i < curves.size(); i++) {
            LoadCurve curve = curves.get(i);
            Color color = Charts.color(i);
            for (String percentile : LoadCurve.PERCENTILES) {
                line(chart, curve, percentile, names.get(i), color);
                runs(chart, curve, percentile, names.get(i), color);
            }
            for (LoadCurve.Point p : curve.points()) {
                lowest = Math.min(lowest, p.rateMsgsPerSec());
                highest = Math.max(highest, p.rateMsgsPerSec());
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            // a log axis is labelled at its decades only: over less than one, a linear one says more
            boolean logarithmic = highest / lowest > DECADE;
            double room = (MARGIN - 1) * Math.max(highest - lowest, lowest);
            chart.getStyler().setXAxisLogarithmic(logarithmic)
                    .setXAxisMin(logarithmic ? lowest / MARGIN : Math.max(0, lowest - room))
                    .setXAxisMax(logarithmic ? highest * MARGIN : highest + room);
            markKnees(chart, curves, names);
            markObjectives(chart, curves);
        }
        return new Charts.Chart(FILE_STEM, chart.getTitle(), chart);
    }

    /** A curve's label, or with its sweep's folder where two sweeps of one cell are drawn. */
    static List<String> names(List<LoadCurve> curves, Map<DurabilityCell, String> labels) {
        List<String> names = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (LoadCurve curve : curves) {
            String name = labels.getOrDefault(curve.cell(), curve.cell().system());
            names.add(used.add(name) ? name : name + " (" + curve.sweep().dir().getFileName() + ")");
        }
        return names;
    }

    /** The median at each rate; only p99's is in the legend, named by the curve. */
    private static void line(XYChart chart, LoadCurve curve, String percentile, String name, Color color) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (LoadCurve.Point p : curve.points()) {
            double median = p.median(percentile);
            if (!Double.isNaN(median)) {
                xs.add(p.rateMsgsPerSec());
                ys.add(Math.max(median, Charts.FLOOR_MS));
            }
        }
        if (xs.isEmpty()) {
            return;
        }
        boolean legend = percentile.equals("p99");
        XYSeries series = chart.addSeries(legend ? name : name + " " + percentile, xs, ys);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(color);
        series.setLineStyle(switch (percentile) {
            case "p99" -> P99;
            case "p50" -> SeriesLines.DOT_DOT;
            default -> SeriesLines.DASH_DASH;
        });
        series.setShowInLegend(legend);
    }

    /** Each run's value as a cross: where a rate ran several times, their spread. */
    private static void runs(XYChart chart, LoadCurve curve, String percentile, String name, Color color) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (LoadCurve.Point p : curve.points()) {
            for (double value : p.values(percentile)) {
                xs.add(p.rateMsgsPerSec());
                ys.add(Math.max(value, Charts.FLOOR_MS));
            }
        }
        if (xs.isEmpty()) {
            return;
        }
        XYSeries series = chart.addSeries(name + " " + percentile + " runs", xs, ys);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(SeriesMarkers.CROSS);
        series.setMarkerColor(color);
        series.setShowInLegend(false);
    }

    /** Where a line's knee is, and how the chart labels it. */
    record Knee(double rate, String label) {
    }

    /** The knees {@link #latencyAgainstLoad} marks, a line's with its name. */
    static List<Knee> knees(List<LoadCurve> curves, List<String> names) {
        List<Knee> knees = new ArrayList<>();
        for (int i = 0; i < curves.size(); i++) {
            Double knee = curves.get(i).knee();
            if (knee != null) {
                knees.add(new Knee(knee, String.format(Locale.US, "knee %s: %,.0f/s%s", names.get(i), knee,
                        curves.get(i).kneeConfirmed() ? "" : " (not confirmed)")));
            }
        }
        return knees;
    }

    /** A vertical line at each knee, labelled with the line's name and the rate near the top. */
    private static void markKnees(XYChart chart, List<LoadCurve> curves, List<String> names) {
        double labelAt = chart.getSeriesMap().values().stream().mapToDouble(XYSeries::getYMax).max().orElse(1);
        for (Knee knee : knees(curves, names)) {
            chart.addAnnotation(new AnnotationLine(knee.rate(), true, false));
            chart.addAnnotation(new AnnotationText(knee.label(), knee.rate(), labelAt, false));
            labelAt /= LABEL_STEP;
        }
    }

    /** The latency objective of each sweep, where it judged latency, as a horizontal line. */
    private static void markObjectives(XYChart chart, List<LoadCurve> curves) {
        double left = chart.getStyler().getXAxisMin();
        double labelX = chart.getStyler().isXAxisLogarithmic() ? left * LABEL_STEP
                : left + (chart.getStyler().getXAxisMax() - left) * 0.08;
        Set<String> drawn = new HashSet<>();
        for (LoadCurve curve : curves) {
            SweepFolder sweep = curve.sweep();
            if (sweep.objectiveLimitMs() != null && drawn.add(sweep.objectiveText())) {
                chart.addAnnotation(new AnnotationLine(sweep.objectiveLimitMs(), false, false));
                chart.addAnnotation(new AnnotationText("objective " + sweep.objectiveText(), labelX,
                        sweep.objectiveLimitMs() * 1.2, false));
            }
        }
    }
}
