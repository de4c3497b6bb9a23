package dev.msgbench.cli.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Under the summary, for the runs whose system counts what it stored (result.json's
 * {@code brokerBytes}): the broker's count of the run's destinations beside the bytes the run
 * sent, and their ratio, what a codec saved on compressible payloads.
 */
final class BrokerBytesTable {

    private static final String NOTE = "<p class=\"note\">Broker bytes: the broker's own counter of the run's destinations,"
            + " read once every client closed, after the client's codec and with the system's framing. Sent: the message"
            + " bytes the run handed to the client, headers and warm-up included. A ratio near 1 or a little above is a"
            + " run of random payloads; below 1, what compression saved. Merged workers: the sums of theirs, each"
            + " counting its own topics, and the ratio of the sums.</p>\n";

    private BrokerBytesTable() {
    }

    /** The table, or nothing where no run has the broker's count. */
    static String html(List<RunFolder> runs) {
        List<RunFolder> counted = runs.stream().filter(r -> r.result().brokerBytes() != null).toList();
        if (counted.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<h3>Bytes on the broker</h3>\n<table id=\"broker-bytes\"><tr><th>run</th>"
                + "<th>broker bytes</th><th>sent bytes</th><th>ratio</th><th>counter</th></tr>\n");
        for (RunFolder run : counted) {
            Map<String, Object> bytes = run.result().brokerBytes();
            b.append("<tr><td>").append(HtmlPage.esc(run.label())).append("</td>").append(number(bytes.get("bytes"), "%,.0f"))
                    .append(number(bytes.get("sentBytes"), "%,.0f")).append(number(bytes.get("ratio"), "%.4f"))
                    .append("<td>").append(HtmlPage.esc(String.valueOf(bytes.get("counter")))).append("</td></tr>\n");
        }
        return b.append("</table>\n").append(NOTE).toString();
    }

    private static String number(Object value, String format) {
        return value instanceof Number n ? "<td>" + String.format(Locale.US, format, n.doubleValue()) + "</td>" : "<td>-</td>";
    }
}
