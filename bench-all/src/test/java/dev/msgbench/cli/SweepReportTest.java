package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.TakesSeconds;

/** report of a real sweep of the loopback system: the folders sweep writes, read as latency against offered load. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SweepReportTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void aSweepOfTheLoopbackSystemIsOneChartOfLatencyAgainstItsRates() throws Exception {
        Path sweep = dir.resolve("sweep");
        CliRun swept = CliRun.of("sweep", "--system", "loopback", "--objective", "p99<=1s", "--start-rate", "300",
                "--max-rate", "600", "--duration", "500ms", "--warmup", "0s", "--repeats", "2", "--must-pass", "1",
                "--output", sweep.toString());
        assertEquals(0, swept.exitCode, swept.toString());
        Path html = dir.resolve("report/sweep.html");

        CliRun report = CliRun.of("report", "-o", html.toString(), sweep.toString());

        assertEquals(0, report.exitCode, report.toString());
        assertEquals("report: " + html + NL + "charts: " + dir.resolve("report/sweep-charts") + " (2 files, PNG and SVG)" + NL,
                report.out);
        String page = Files.readString(html);
        // the warm-up run at 300 msg/s is left out; 600 msg/s, the knee at --max-rate, ran twice
        assertTrue(page.contains("<tr><td>loopback</td><td>sweep</td><td>p99 &lt;= 1 s</td><td>600</td><td>max-rate</td>"
                + "<td>2</td><td>3</td></tr>"), page);
        assertTrue(page.contains("<img class=\"chart\" id=\"latency-against-offered-load\""));
        assertFalse(page.contains("<h2>Over time</h2>"), "a sweep is not drawn as a run per step");
    }
}
