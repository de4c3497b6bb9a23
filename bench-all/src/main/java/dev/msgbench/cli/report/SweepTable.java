package dev.msgbench.cli.report;

import java.util.List;
import java.util.Locale;

/** Under the chart of latency against offered load: each line's sweep, its objective and its knee. */
final class SweepTable {

    private SweepTable() {
    }

    static String html(List<LoadCurve> curves, List<String> names) {
        StringBuilder b = new StringBuilder("<table id=\"sweeps\"><tr><th>line</th><th>sweep</th><th>objective</th>"
                + "<th>knee msg/s</th><th>search ended</th><th>rates</th><th>runs</th></tr>\n");
        for (int i = 0; i < curves.size(); i++) {
            LoadCurve curve = curves.get(i);
            SweepFolder.Knee knee = curve.sweep().knees().get(curve.cell().system());
            String kneeText = curve.knee() == null ? "none" : String.format(Locale.US, "%,.0f", curve.knee())
                    + (curve.kneeConfirmed() ? "" : " (not confirmed)");
            b.append("<tr><td>").append(HtmlPage.esc(names.get(i))).append("</td><td>")
                    .append(HtmlPage.esc(String.valueOf(curve.sweep().dir().getFileName()))).append("</td><td>")
                    .append(HtmlPage.esc(curve.sweep().objectiveText())).append("</td><td>").append(HtmlPage.esc(kneeText))
                    .append("</td><td>").append(HtmlPage.esc(knee == null ? "-" : knee.end())).append("</td><td>")
                    .append(curve.points().size()).append("</td><td>")
                    .append(curve.points().stream().mapToInt(p -> p.runs().size()).sum()).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }
}
