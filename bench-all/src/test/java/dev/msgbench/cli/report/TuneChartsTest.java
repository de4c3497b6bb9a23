package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYSeries;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.cli.tune.TuneFigure;
import dev.msgbench.core.result.ResultFiles;

/** A tune folder in the report: one chart per figure, every set's runs as points and its median marked. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TuneChartsTest {

    @TempDir
    static Path dir;

    static Path tune;

    /** Two sets of four runs: G1's p99 around 1 ms, ZGC's around 2 ms, called worse; a child's own run folder beside. */
    @BeforeAll
    static void tune() throws Exception {
        tune = dir.resolve("tune");
        Fixtures.run(tune.resolve("jdk25-G1/run-1"), "nats", 500);
        ObjectNode json = ResultFiles.json().createObjectNode();
        json.putArray("e2eArgs").add("--system").add("nats");
        ArrayNode sets = json.putArray("sets");
        set(sets, "G1", new double[] {1.0, 1.2, 0.9, 1.1}, null);
        set(sets, "ZGC-gen", new double[] {2.0, 2.4, 1.8, 2.2}, "worse x2.00 (p=0.029)");
        ResultFiles.json().writeValue(tune.resolve("tune.json").toFile(), json);
    }

    private static void set(ArrayNode sets, String name, double[] p99, String verdict) {
        ObjectNode set = sets.addObject();
        set.put("jdk", "jdk25");
        set.put("flagSet", name);
        ObjectNode figures = set.putObject("figures");
        for (TuneFigure figure : TuneFigure.values()) {
            ArrayNode runs = figures.putObject(figure.label()).putArray("runs");
            for (double v : p99) {
                runs.add(figure == TuneFigure.P99 ? v : 1.0);
            }
        }
        if (verdict != null) {
            set.put("baseline", "jdk25-G1");
            set.put("rule", "the rule");
            set.putObject("verdicts").put("p99 ms", verdict);
        }
    }

    @Test
    void eachSetsRunsArePointsAndItsMedianABar() {
        TuneFolder folder = TuneFolder.read(tune, new ArrayList<>());
        Charts.Chart chart = RepeatsCharts.chart(RepeatsCharts.What.TUNE, folder.sets(), TuneFigure.P99.label(), 0);

        assertEquals("tune-01-p99-ms", chart.fileStem());
        XYSeries zgc = chart.xchart().getSeriesMap().get("jdk25 ZGC-gen");
        assertEquals(XYSeries.XYSeriesRenderStyle.Scatter, zgc.getXYSeriesRenderStyle());
        assertEquals(4, zgc.getYData().length);
        assertEquals(2.0, zgc.getXData()[0], "the second set at x = 2");
        XYSeries median = chart.xchart().getSeriesMap().get("jdk25 ZGC-gen median");
        assertEquals(2.1, median.getYData()[0], 1e-9, "the median of 1.8, 2.0, 2.2, 2.4");
        assertEquals(11, RepeatsCharts.charts(RepeatsCharts.What.TUNE, folder.sets(), List.of(TuneFigure.values()), 0).size(), "one chart per figure");
    }

    @Test
    void theReportDrawsATuneAsItsFiguresNotAsTheRunsOfItsChildren() throws Exception {
        Report.Written written = Report.write(List.of(dir), dir.resolve("report.html"));
        String html = Files.readString(written.html());

        assertTrue(html.contains("<h2 id=\"tune-1\">JVM flag sets, run by run (tune)</h2>"), html);
        assertTrue(html.contains("Sweeps and tunes only"), "the child's run is not drawn on its own");
        assertTrue(html.contains("<td class=\"n\">2.100 [1.800..2.400]<br>worse x2.00 (p=0.029)</td>"), html);
        assertTrue(Files.isRegularFile(written.chartFolder().resolve("tune-01-p99-ms.png")));
    }
}
