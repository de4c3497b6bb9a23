package dev.msgbench.cli.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The price-of-safety table: a row per cell, its latency at a stated rate, its knee and its acknowledged losses. */
final class SafetyTable {

    private static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

    private SafetyTable() {
    }

    static String html(List<SafetyCell> cells, Map<DurabilityCell, String> labels) {
        List<LossKey> keys = SafetyCells.lossKeys(cells);
        StringBuilder b = new StringBuilder("<div style=\"overflow-x:auto\"><table id=\"price-of-safety-table\" "
                + "class=\"views\"><tr><th>system and setting</th><th>rate msg/s</th>");
        PERCENTILES.forEach(p -> b.append("<th>").append(p).append(" ms</th>"));
        b.append("<th>knee msg/s</th>");
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
                b.append(td(ms == null ? "-" : String.format(Locale.US, "%.3f", ms)));
            }
            b.append(td(cell.knees().isEmpty() ? "-" : String.join(" / ", cell.knees().stream()
                    .map(k -> String.format(Locale.US, "%,.0f", k)).toList())));
            for (LossKey key : keys) {
                LossFigure loss = cell.losses().get(key);
                b.append(loss == null ? "<td>-</td>" : "<td" + (loss.acknowledgedLost() > 0 ? " class=\"warn\">" : ">")
                        + HtmlPage.esc(loss.text()) + "</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</table></div>\n").toString();
    }

    private static String td(String text) {
        return "<td>" + HtmlPage.esc(text) + "</td>";
    }
}
