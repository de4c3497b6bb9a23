package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PercentileChartsTest {

    @TempDir
    static Path dir;

    private static final List<Path> runs = new ArrayList<>();

    @BeforeAll
    static void writeFourRuns() throws Exception {
        // two systems under two settings, as a workload of the E3 kind writes them
        for (String system : List.of("nats", "kafka")) {
            for (int rate : List.of(200, 400)) {
                Path run = Fixtures.run(dir.resolve(system + "-" + rate), system, 100);
                Fixtures.editResult(run, json -> ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("workload"))
                        .put("rateMsgsPerSec", rate));
                runs.add(run);
            }
        }
    }

    @Test
    void systemsMeasuredUnderTheSameSettingShareAChartAndKeepTheirColourOnEveryChart() {
        List<RunFolder> folders = RunFolder.find(runs, "report DIR");
        List<Charts.Chart> charts = Report.percentileCharts(folders, false);

        assertEquals(2, charts.size());
        assertEquals("Latency by percentile, 256B @200/s (response time, from the intended send)", charts.get(0).title());
        assertEquals(List.of("nats", "kafka"), new ArrayList<>(charts.get(0).xchart().getSeriesMap().keySet()));
        assertEquals("latency-by-percentile-02", charts.get(1).fileStem());
        assertEquals(charts.get(0).xchart().getSeriesMap().get("kafka").getLineColor(),
                charts.get(1).xchart().getSeriesMap().get("kafka").getLineColor());
    }

    @Test
    void runsOfOneSystemStayOnOneChart() {
        List<RunFolder> folders = RunFolder.find(List.of(runs.get(0), runs.get(1)), "report DIR");
        List<Charts.Chart> charts = Report.percentileCharts(folders, false);

        assertEquals(1, charts.size());
        assertEquals("latency-by-percentile", charts.get(0).fileStem());
        assertEquals(2, charts.get(0).xchart().getSeriesMap().size());
    }

    /** E2's kind: three cells of one system under one setting (its storages) beside another system. */
    @Test
    void cellsOfOneSystemUnderOneSettingGetCurvesOfTheirOwn() throws Exception {
        Path second = Fixtures.run(dir.resolve("nats-200-file"), "nats", 100);
        Fixtures.editResult(second, json -> ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("workload"))
                .put("rateMsgsPerSec", 200));
        List<RunFolder> folders = RunFolder.find(List.of(runs.get(0), second, runs.get(1), runs.get(2), runs.get(3)),
                "report DIR");
        List<Charts.Chart> charts = Report.percentileCharts(folders, false);

        assertEquals(2, charts.size());
        List<String> names = new ArrayList<>(charts.get(0).xchart().getSeriesMap().keySet());
        assertEquals(List.of("nats", "nats 256B @200/s (nats-200-file)", "kafka"), names);
    }
}
