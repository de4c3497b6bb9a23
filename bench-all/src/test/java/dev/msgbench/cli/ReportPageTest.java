package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import dev.msgbench.core.time.NanoClock;

/**
 * The report as a person sees it: opened in headless Chromium, every chart decoded, no script
 * errors, and a screenshot kept in target/report-page/ for a look (HeadlessChromium).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBrowser
class ReportPageTest {

    private static final Pattern IMG = Pattern.compile("<img class=\"chart\" id=\"([^\"]+)\"[^>]* src=\"data:image/png;base64,([^\"]*)\"");

    @TempDir
    static Path dir;

    static CliRun report;
    static Path html;

    /** Four systems as in experiment E3; "kafka" stalls for 150 ms, so it has the worst tail. */
    @BeforeAll
    static void writeReport() throws Exception {
        Path results = dir.resolve("e3");
        Fixtures.run(results.resolve("1-nats"), "nats", 200);
        Fixtures.run(results.resolve("2-redis"), "redis", 300);
        Fixtures.run(results.resolve("3-rabbitmq"), "rabbitmq", 600);
        Fixtures.run(results.resolve("4-kafka"), "kafka",
                new InMemorySystem().answeringIn(400_000, NanoClock.system()).freezing(1_000_000_000L, 150_000_000L));
        html = dir.resolve("out/e3.html");
        report = CliRun.of("report", "--service", "-o", html.toString(), results.toString());
    }

    @Test
    void writesOnePageAndEachChartAsPngAndSvg() throws IOException {
        assertEquals(0, report.exitCode, report.toString());
        assertEquals("report: " + html + "\ncharts: " + dir.resolve("out/e3-charts") + " (18 files, PNG and SVG)\n",
                report.out);
        List<String> files;
        try (var list = Files.list(dir.resolve("out/e3-charts"))) {
            files = list.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertTrue(files.containsAll(List.of("latency-by-percentile.png", "latency-by-percentile.svg",
                "latency-over-time-04.png", "throughput-over-time-04.svg")), files.toString());
        for (String f : files) {
            assertTrue(Files.size(dir.resolve("out/e3-charts").resolve(f)) > 1000, f);
        }
        String svg = Files.readString(dir.resolve("out/e3-charts/latency-by-percentile.svg"));
        assertTrue(svg.contains("<svg"), "an SVG document");
    }

    @Test
    void thePageIsSelfContained() throws IOException {
        String page = Files.readString(html);
        assertFalse(page.contains("http://") || page.contains("https://") || page.contains("src=\"//"),
                "no fetches: the page must open offline");
        Matcher m = IMG.matcher(page);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
            assertTrue(m.group(2).length() > 1000, "chart " + m.group(1) + " is not empty");
        }
        assertEquals(9, ids.size(), ids.toString());
        assertEquals("latency-by-percentile", ids.get(0), "the percentile chart comes first");
        // durability comes before the other settings of each run
        int durability = page.indexOf("<tr class=\"durability\">");
        int workload = page.indexOf("<td class=\"k\">workload</td>");
        assertTrue(durability > 0 && durability < workload, "durability first");
        for (String system : List.of("nats 256B @200/s", "redis 256B @200/s", "rabbitmq 256B @200/s", "kafka 256B @200/s")) {
            assertTrue(page.contains("<tr><td>" + system + "</td>"), system + " in the summary table");
        }
    }

    @Test
    void chromiumRendersEveryChartWithoutScriptErrors() throws Exception {
        HeadlessChromium.assertRendersEveryChart(dir, html, "report", 2000, 9);
    }
}
