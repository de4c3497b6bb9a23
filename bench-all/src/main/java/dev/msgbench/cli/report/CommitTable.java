package dev.msgbench.cli.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.RunResult;

/**
 * Under the summary, for the runs in transactions: each commit's own time, at the percentiles the
 * summary reports latency at (each message's latency includes the wait for its commit), and the
 * messages aborted on purpose, with those delivered all the same.
 */
final class CommitTable {

    private static final String NOTE = "<p class=\"note\">A commit's time is the driver's (Kafka: commitTransaction's call"
            + " to its return), one value per transaction whose first message is in the measured part; each message's"
            + " latency above includes the wait for its transaction's commit. Aborted messages are never acknowledged"
            + " and counted in no loss; one delivered to a read_committed consumer is a fault (the warnings say which)."
            + "</p>\n";

    private CommitTable() {
    }

    /** The table, or nothing where no run committed or aborted a transaction. */
    static String html(List<RunFolder> runs) {
        List<RunFolder> transactional = runs.stream().filter(CommitTable::transactional).toList();
        if (transactional.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<h3>Transactions</h3>\n<table id=\"commits\"><tr><th>run</th><th>commits</th>");
        for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
            b.append("<th>commit ").append(p.getKey()).append(" ms</th>");
        }
        b.append("<th>commit max ms</th><th>aborted on purpose</th><th>aborted, delivered all the same</th></tr>\n");
        for (RunFolder run : transactional) {
            RunResult r = run.result();
            Map<String, Double> commit = r.latenciesMs().commit() == null ? Map.of() : r.latenciesMs().commit();
            b.append("<tr><td>").append(HtmlPage.esc(run.label())).append("</td>").append(HtmlPage.cell(commit.get("count"), "%,.0f"));
            for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
                b.append(HtmlPage.cell(commit.get(p.getKey()), "%.3f"));
            }
            b.append(HtmlPage.cell(commit.get("max"), "%.3f"));
            Long aborted = r.counts().aborted();
            long delivered = r.counts().abortedDelivered() == null ? 0 : r.counts().abortedDelivered();
            b.append(aborted == null ? "<td>-</td><td>-</td>" : String.format(Locale.US, "<td>%,d</td><td%s>%,d</td>",
                    aborted, delivered > 0 ? " class=\"warn\"" : "", delivered)).append("</tr>\n");
        }
        return b.append("</table>\n").append(NOTE).toString();
    }

    private static boolean transactional(RunFolder run) {
        RunResult r = run.result();
        return (r.latenciesMs() != null && r.latenciesMs().commit() != null)
                || (r.counts() != null && r.counts().aborted() != null);
    }
}
