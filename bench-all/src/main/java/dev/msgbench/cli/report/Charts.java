package dev.msgbench.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts, drawn by XChart. Axes follow HdrHistogram's plotter: latency in ms on a
 * log axis; percentile on a 1/(1-p) log axis whose decades are 0%, 90%, 99%, 99.9%... The charts
 * of a run over time are {@link OverTimeCharts}', against the offered rate {@link LoadCharts}'.
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

    /** Points per series at most: a day of seconds is thinned to this many (see ChartPoints). */
    static final int MAX_POINTS = 2000;
    static final int WIDTH = 1100;
    static final int HEIGHT = 620;
    static final int SMALL_HEIGHT = 380;
    /** What one entry of a legend below the plot takes, so that the plot keeps its height however many there are. */
    private static final int LEGEND_ROW = 20;

    /** {@link #HEIGHT}, and room for a legend of {@code entries} below the plot if {@code below}. */
    static int height(int entries, boolean below) {
        return HEIGHT + (below ? entries * LEGEND_ROW : 0);
    }

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
        boolean legendBelow = runs.size() > 8;
        XYChart chart = new XYChartBuilder().width(WIDTH).height(height(runs.size() * (service ? 2 : 1), legendBelow))
                .title(setting == null ? latency + " by percentile (" + what + ")"
                        : latency + " by percentile, " + setting + " (" + what + ")")
                .xAxisTitle("percentile").yAxisTitle("latency (ms)").build();
        style(chart);
        Styler styler = chart.getStyler();
        // x is log10(1/(1-p)) on a linear axis, its numbers hidden and the percentiles written at
        // their gridlines instead: XChart 3.8.8's tick calculator can loop forever when given a
        // tick label function, so none is given
        chart.getStyler().setYAxisLogarithmic(true).setXAxisTicksVisible(false);
        chart.getStyler().setLegendPosition(legendBelow ? Styler.LegendPosition.OutsideS : Styler.LegendPosition.OutsideE)
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

    private static AnnotationLine gridline(double x) {
        return new AnnotationLine(x, true, false);
    }

    static void style(XYChart chart) {
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendBorderColor(new Color(0xCCCCCC));
        styler.setAntiAlias(true);
        chart.getStyler().setPlotGridLinesColor(new Color(0xE4E4E4)).setAnnotationLineColor(new Color(0xAAAAAA));
        chart.getStyler().setAxisTickLabelsColor(Color.DARK_GRAY);
    }
}
