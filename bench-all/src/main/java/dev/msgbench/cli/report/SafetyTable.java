package dev.msgbench.cli.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The price-of-safety table: a row per cell, its latency at a stated rate, the same on the fault
 * layer, its knee, its highest rate and its acknowledged losses; a column no cell has a figure
 * for is left out.
 */
final class SafetyTable {

    private static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

    private SafetyTable() {
    }

    static String html(List<SafetyCell> cells, Map<DurabilityCell, String> labels) {
        List<LossKey> keys = SafetyCells.lossKeys(cells);
        StringBuilder b = new StringBuilder("<div style=\"overflow-x:auto\"><table id=\"price-of-safety-table\" "
                + "class=\"views\"><tr><th>system and setting</th><th>rate msg/s</th>");
        PERCENTILES.forEach(p -> b.append("<th>").append(p).append(" ms</th>"));
        boolean layer = cells.stream().anyMatch(c -> c.onLayer() != null);
        boolean knees = cells.stream().anyMatch(c -> !c.knees().isEmpty());
        boolean highest = cells.stream().anyMatch(c -> !c.highestRates().isEmpty());
        if (layer) {
            b.append("<th title=\"the same rate on forgetful disks, no fault: what the layer the losses are measured on "
                    + "costs\">p99 on the fault layer ms</th>");
        }
        if (knees) {
            b.append("<th>knee msg/s</th>");
        }
        if (highest) {
            b.append("<th title=\"a throughput run: acknowledged and delivered, the lower of its two ends\">"
                    + "highest rate msg/s</th>");
        }
        keys.forEach(k -> b.append("<th>acknowledged lost after a ").append(HtmlPage.esc(k.title())).append("</th>"));
        b.append("</tr>\n");
        for (SafetyCell cell : cells) {
            b.append("<tr><td title=\"").append(HtmlPage.esc(cell.cell().settings())).append("\">")
                    .append(HtmlPage.esc(labels.get(cell.cell()))).append("</td>");
            SafetyCell.LatencyAtRate latency = cell.latency();
            b.append(td(latency == null ? "-" : String.format(Locale.US, "%,.0f", latency.rateMsgsPerSec())
                    + (latency.runs() == 1 ? "" : " (" + latency.runs() + " runs)")));
            for (String p : PERCENTILES) {
                Double ms = latency == null ? null : latency.ms(p);
                b.append(td(ms == null ? "-" : String.format(Locale.US, "%,.3f", ms)));
            }
            if (layer) {
                Double ms = cell.onLayer() == null ? null : cell.onLayer().ms("p99");
                b.append(td(ms == null ? "-" : String.format(Locale.US, "%,.3f", ms)
                        + (cell.onLayer().rateMsgsPerSec() == (latency == null ? -1 : latency.rateMsgsPerSec()) ? ""
                                : String.format(Locale.US, " at %,.0f/s", cell.onLayer().rateMsgsPerSec()))));
            }
            if (knees) {
                b.append(td(rates(cell.knees())));
            }
            if (highest) {
                b.append(td(rates(cell.highestRates())));
            }
            for (LossKey key : keys) {
                LossFigure loss = cell.losses().get(key);
                b.append(loss == null ? "<td>-</td>" : "<td" + (loss.acknowledgedLost() > 0 ? " class=\"warn\">" : ">")
                        + HtmlPage.esc(loss.text()) + "</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</table></div>\n").toString();
    }

    private static String rates(List<Double> rates) {
        return rates.isEmpty() ? "-" : String.join(" / ", rates.stream().map(k -> String.format(Locale.US, "%,.0f", k)).toList());
    }

    private static String td(String text) {
        return "<td>" + HtmlPage.esc(text) + "</td>";
    }
}
