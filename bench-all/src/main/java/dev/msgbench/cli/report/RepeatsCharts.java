package dev.msgbench.cli.report;

import java.awt.BasicStroke;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.msgbench.cli.repeats.RunFigure;

/**
 * Repeated sets figure by figure (a tune's flag sets, a workload's cells): each set at its own
 * place on the x axis, each of its runs a cross and its median run a bar across them, so that a
 * difference between sets reads against the spread within each. The y axis starts at 0: a spread
 * is judged against the figure's size.
 */
final class RepeatsCharts {

    /** Half the width of a median's bar, in x units (one set per unit). */
    private static final double HALF_BAR = 0.3;
    private static final BasicStroke MEDIAN = new BasicStroke(3f);

    private RepeatsCharts() {
    }

    /** A chart per figure. */
    static List<Charts.Chart> charts(What what, List<RepeatedSet> sets, List<? extends RunFigure<?>> figures, int index) {
        List<Charts.Chart> charts = new ArrayList<>();
        for (RunFigure<?> figure : figures) {
            charts.add(chart(what, sets, figure.label(), index));
        }
        return charts;
    }

    /**
     * What the sets are.
     *
     * @param set  "flag set", "cell": the x axis
     * @param stem the charts' file names start with it and the folder's number: "tune"
     */
    record What(String set, String stem) {
        static final What TUNE = new What("flag set", "tune");
    }

    static Charts.Chart chart(What what, List<RepeatedSet> sets, String label, int index) {
        XYChart chart = new XYChartBuilder().width(Charts.WIDTH).height(Charts.SMALL_HEIGHT)
                .title(label + " of each run per " + what.set() + " (x: a run, bar: the median run)")
                .xAxisTitle(what.set()).yAxisTitle(label).build();
        Charts.style(chart);
        // no tick label function: XChart 3.8.8's tick calculator can loop with one (see Charts); the sets are written in
        chart.getStyler().setXAxisTicksVisible(false).setLegendPosition(Styler.LegendPosition.OutsideE)
                .setLegendLayout(Styler.LegendLayout.Vertical).setMarkerSize(8);
        double top = 0;
        for (int i = 0; i < sets.size(); i++) {
            RepeatedSet set = sets.get(i);
            List<Double> values = set.runs().getOrDefault(label, List.of());
            if (values.isEmpty()) {
                continue;
            }
            double x = i + 1;
            List<Double> xs = new ArrayList<>();
            values.forEach(v -> xs.add(x));
            XYSeries runs = chart.addSeries(set.name(), xs, values);
            runs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            runs.setMarker(SeriesMarkers.CROSS);
            runs.setMarkerColor(Charts.color(i));
            double median = set.median(label);
            XYSeries bar = chart.addSeries(set.name() + " median", List.of(x - HALF_BAR, x + HALF_BAR), List.of(median, median));
            bar.setMarker(SeriesMarkers.NONE);
            bar.setLineColor(Charts.color(i));
            bar.setLineStyle(MEDIAN);
            bar.setShowInLegend(false);
            top = Math.max(top, values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }
        if (!chart.getSeriesMap().isEmpty()) {
            double height = top > 0 ? top * 1.25 : 1;
            chart.getStyler().setXAxisMin(0.4).setXAxisMax(sets.size() + 0.6).setYAxisMin(0.0).setYAxisMax(height);
            for (int i = 0; i < sets.size(); i++) {
                chart.addAnnotation(new AnnotationText(sets.get(i).name(), i + 1, top * 1.12 > 0 ? top * 1.12 : 0.9, false));
            }
        }
        String stem = String.format(Locale.US, "%s-%02d-%s", what.stem(), index + 1, label.replaceAll("[^A-Za-z0-9]+", "-")
                .replaceAll("-$", ""));
        return new Charts.Chart(stem, chart.getTitle(), chart);
    }
}
