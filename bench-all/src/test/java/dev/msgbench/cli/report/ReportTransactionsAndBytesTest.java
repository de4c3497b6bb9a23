package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;

/** What the report shows of a transactional run's commits and aborts, and of the bytes the broker counted. */
class ReportTransactionsAndBytesTest {

    private static final String COUNTER = "kafka: the run's partition logs (describeLogDirs, one replica each)";

    @TempDir
    Path dir;

    @Test
    void aTransactionalRunsCommitPercentilesAndAbortsAreInATableUnderTheSummary() throws Exception {
        Histogram commits = Fixtures.eachMillisUpTo(100);
        Path run = Fixtures.run(dir.resolve("runs/1-txn"), "kafka", 200);
        Fixtures.editResult(run, json -> {
            ((ObjectNode) json.get("latenciesMs")).set("commit", ResultFiles.json().valueToTree(Percentiles.inMillis(commits)));
            ((ObjectNode) json.get("counts")).put("aborted", 400).put("abortedDelivered", 3);
        });
        Fixtures.run(dir.resolve("runs/2-plain"), "nats", 200);

        Path page = dir.resolve("report.html");
        Report.write(List.of(dir.resolve("runs")), page);
        String html = Files.readString(page);

        assertTrue(html.contains("<h3>Transactions</h3>\n<table id=\"commits\"><tr><th>run</th><th>commits</th>"
                + "<th>commit p50 ms</th><th>commit p75 ms</th><th>commit p90 ms</th><th>commit p99 ms</th>"), html);
        Map<String, Double> ms = Percentiles.inMillis(commits);
        assertTrue(html.contains(String.format(Locale.US, "<tr><td>kafka 256B @200/s</td><td>100</td><td>%.3f</td><td>%.3f"
                + "</td>", ms.get("p50"), ms.get("p75"))), html);
        assertTrue(html.contains(String.format(Locale.US, "<td>%.3f</td><td>400</td><td class=\"warn\">3</td></tr>",
                ms.get("max"))), "max, aborted, and those delivered all the same marked");
        assertFalse(html.contains("<td>nats 256B @200/s</td><td>-</td>"), "a run without transactions has no row");
        assertFalse(html.contains("id=\"broker-bytes\""), "no run has the broker's count");
    }

    @Test
    void theBrokersByteCountSitsBesideTheBytesSentWithTheRatioAndTheCounterNamed() throws Exception {
        Path run = Fixtures.run(dir.resolve("runs/1-lz4"), "kafka", 200);
        Fixtures.editResult(run, json -> json.putObject("brokerBytes").put("counter", COUNTER).put("bytes", 2_654_321L)
                .put("sentBytes", 20_480_000L).put("ratio", 0.1296));
        Fixtures.run(dir.resolve("runs/2-plain"), "nats", 200);

        Path page = dir.resolve("report.html");
        Report.write(List.of(dir.resolve("runs")), page);
        String html = Files.readString(page);

        assertTrue(html.contains("<h3>Bytes on the broker</h3>\n<table id=\"broker-bytes\"><tr><th>run</th><th>broker "
                + "bytes</th><th>sent bytes</th><th>ratio</th><th>counter</th></tr>\n<tr><td>kafka 256B @200/s</td>"
                + "<td>2,654,321</td><td>20,480,000</td><td>0.1296</td><td>" + HtmlPage.esc(COUNTER) + "</td></tr>\n"
                + "</table>"), html);
        assertFalse(html.contains("<td>nats 256B @200/s</td><td>-</td>"), "a run without the count has no row");
        assertFalse(html.contains("id=\"commits\""), "no run is in transactions");
    }
}
