package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.report.Fixtures;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.NeedsBrowser;

/**
 * The report's views of all runs together, as a person sees them: a price-of-safety workload's
 * folders, a sweep of its safe setting and a run whose system paused for 2.5 s, on one page opened
 * in headless Chromium; a screenshot is kept in target/report-page/ for a look.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBrowser
class ReportViewsPageTest {

    private static final Pattern IMG = Pattern.compile("<img class=\"chart\" id=\"([^\"]+)\"");

    @TempDir
    static Path dir;

    static CliRun report;
    static Path html;

    @BeforeAll
    static void writeReport() throws Exception {
        Path workload = Fixtures.priceOfSafety(dir.resolve("price-of-safety"));
        Path sweep = Fixtures.sweep(dir.resolve("sweep"), "kafka", Fixtures.KAFKA_FLUSH_EACH, 4000,
                new double[] {1000, 1, 6, 7}, new double[] {2000, 1.5, 6.5, 8}, new double[] {2000, 1.2, 5.5, 7.5},
                new double[] {4000, 2, 7, 9}, new double[] {8000, 9, 90, 99}, new double[] {8000, 12, 120, 140});
        Path paused = Fixtures.faulted(dir.resolve("paused"), "pause=2500ms@1s", InMemorySystem::new);
        html = dir.resolve("out/views.html");
        report = CliRun.of("report", "-o", html.toString(), workload.toString(), sweep.toString(), paused.toString());
    }

    @Test
    void thePageHasTheViewsFirstThenEveryRun() throws Exception {
        assertEquals(0, report.exitCode, report.toString());
        List<String> ids = chartIds(Files.readString(html));
        assertEquals(List.of("price-of-safety", "latency-against-offered-load", "latency-by-percentile"), ids.subList(0, 3));
        assertEquals(3 + 2 * 7, ids.size(), "and both over-time charts of each of the 7 runs: " + ids);
        assertTrue(Files.readString(html).contains("<p class=\"note gaps\">No delivery (shaded): 1.0 s to 3.0 s"));
    }

    @Test
    void chromiumRendersEveryChartWithoutScriptErrors() throws Exception {
        HeadlessChromium.assertRendersEveryChart(dir, html, "views", 2400, chartIds(Files.readString(html)).size());
    }

    private static List<String> chartIds(String page) {
        List<String> ids = new ArrayList<>();
        Matcher m = IMG.matcher(page);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
