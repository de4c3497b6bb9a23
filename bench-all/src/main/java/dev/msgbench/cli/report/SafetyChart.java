package dev.msgbench.cli.report;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The price of safety in one picture: for each cell, its p99 at the stated rate (circles, left
 * axis) and its knee, or without a sweep the highest rate a throughput run sustained (diamonds,
 * right axis), against the share of acknowledged messages it lost
 * after the fault that tells the most (a power loss of every node where the cells have one). A
 * safe setting sits at 0 on the left, higher; what a setting saves in milliseconds or gains in
 * messages per second, and what it costs in lost messages, reads across.
 */
final class SafetyChart {

    static final String FILE_STEM = "price-of-safety";
    private static final int LATENCY_AXIS = 0;
    private static final int RATE_AXIS = 1;
    private static final int LONG_LABEL = 40;
    private static final String RATE_TITLE = "highest rate sustained: the knee, else a throughput run's (msg/s)";
    /** Room left of 0 and right of the largest loss, so their markers are not on the frame. */
    private static final double MARGIN = 0.06;

    private SafetyChart() {
    }

    /** The loss the picture is drawn against: the one that tells the most that some cell has. */
    static LossKey drawnAgainst(List<SafetyCell> cells) {
        return SafetyCells.lossKeys(cells).get(0);
    }

    static Charts.Chart chart(List<SafetyCell> cells, Map<DurabilityCell, String> labels) {
        LossKey key = drawnAgainst(cells);
        // long names beside the plot would leave it no width
        boolean legendBelow = cells.size() > 6 || labels.values().stream().anyMatch(l -> l.length() > LONG_LABEL);
        XYChart chart = new XYChartBuilder().width(Charts.WIDTH).height(Charts.height(cells.size(), legendBelow))
                .title("p99 at the stated rate (circles) and the highest rate (diamonds) against acknowledged loss")
                .xAxisTitle("acknowledged messages lost after a " + key.title() + " (% of those acknowledged)")
                .yAxisTitle("p99 latency at the stated rate (ms)").build();
        Charts.style(chart);
        // labels between the decades too: the cells' p99s are often within one
        chart.getStyler().setYAxisLogarithmic(true).setYAxisLogarithmicDecadeOnly(false).setYAxisDecimalPattern("#,##0.###")
                .setLegendPosition(legendBelow ? Styler.LegendPosition.OutsideS : Styler.LegendPosition.OutsideE)
                .setLegendLayout(Styler.LegendLayout.Vertical)
                .setMarkerSize(11);
        chart.getStyler().putYAxisGroupDecimalPatternMap(RATE_AXIS, "#,###");
        boolean latency = cells.stream().anyMatch(c -> c.losses().containsKey(key) && p99(c) != null);
        int rateAxis = latency ? RATE_AXIS : LATENCY_AXIS;
        double largest = 0;
        for (int i = 0; i < cells.size(); i++) {
            SafetyCell cell = cells.get(i);
            LossFigure loss = cell.losses().get(key);
            if (loss == null) {
                continue;
            }
            double share = loss.sharePercent();
            largest = Math.max(largest, share);
            String label = labels.get(cell.cell());
            Double p99 = p99(cell);
            if (p99 != null) {
                point(chart, label, share, Math.max(p99, Charts.FLOOR_MS), Charts.color(i), LATENCY_AXIS,
                        SeriesMarkers.CIRCLE, true);
            }
            if (cell.rate() != null) {
                // named in the legend by its latency, unless it has none
                point(chart, label + (cell.knee() != null ? " (knee)" : " (highest rate)"), share, cell.rate(),
                        Charts.color(i), rateAxis, SeriesMarkers.DIAMOND, p99 == null);
            }
        }
        if (rateAxis == RATE_AXIS && chart.getSeriesMap().values().stream().anyMatch(s -> s.getYAxisGroup() == RATE_AXIS)) {
            chart.setYAxisGroupTitle(RATE_AXIS, RATE_TITLE);
            chart.getStyler().setYAxisGroupPosition(RATE_AXIS, Styler.YAxisPosition.Right);
        } else if (!latency) {
            chart.setYAxisTitle(RATE_TITLE);
        }
        double width = Math.max(largest, 1.0);
        chart.getStyler().setXAxisMin(-MARGIN * width).setXAxisMax(largest == 0 ? width : largest * (1 + MARGIN));
        return new Charts.Chart(FILE_STEM, chart.getTitle(), chart);
    }

    private static Double p99(SafetyCell cell) {
        return cell.latency() == null ? null : cell.latency().ms("p99");
    }

    private static void point(XYChart chart, String name, double x, double y, Color color, int axis, Marker marker,
                              boolean legend) {
        XYSeries series = chart.addSeries(name, new ArrayList<>(List.of(x)), new ArrayList<>(List.of(y)));
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(marker);
        series.setMarkerColor(color);
        series.setYAxisGroup(axis);
        series.setShowInLegend(legend);
    }
}
