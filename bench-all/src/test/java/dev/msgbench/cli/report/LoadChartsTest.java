package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * Sweeps drawn as latency against offered load: a line per system, the median of the runs at
 * each rate, each run a cross, the knee marked; and a sweep is one view, not a run per step.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadChartsTest {

    @TempDir
    static Path dir;

    static Path kafka;
    static Path nats;

    /** Kafka sustains 4,000 msg/s, its 2,000 and 8,000 run twice; NATS 8,000. Rows: rate, p50, p99, p99.9. */
    @BeforeAll
    static void sweep() throws Exception {
        kafka = Fixtures.sweep(dir.resolve("sweeps/kafka"), "kafka", Map.of("acks", "all"), 4000,
                new double[] {1000, 0.5, 1, 2}, new double[] {2000, 0.6, 1.5, 3}, new double[] {2000, 0.7, 2.5, 4},
                new double[] {4000, 1, 4, 6}, new double[] {8000, 5, 50, 80}, new double[] {8000, 6, 70, 90});
        nats = Fixtures.sweep(dir.resolve("sweeps/nats"), "nats", Map.of("acks", "0"), 8000,
                new double[] {1000, 0.1, 0.2, 0.3}, new double[] {8000, 0.2, 0.4, 0.6});
    }

    @Test
    void aSweepIsALineOfTheMediansAtEachRateWithEachRunBesideIt() {
        List<LoadCurve> curves = LoadCurve.of(SweepFolder.read(kafka, new ArrayList<>()));

        assertEquals(1, curves.size());
        LoadCurve curve = curves.get(0);
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 8000.0), curve.points().stream().map(LoadCurve.Point::rateMsgsPerSec)
                .toList());
        assertEquals(2.0, curve.points().get(1).median("p99"), "the median of 1.5 and 2.5");
        assertEquals(List.of(1.5, 2.5), curve.points().get(1).values("p99"));
        assertEquals(4000.0, curve.knee());
        assertEquals(new DurabilityCell("kafka", Map.of("acks", "all")), curve.cell());
    }

    @Test
    void twoSweepsAreOneChartWithALinePerSystemAndTheirKneesMarked() {
        List<LoadCurve> curves = new ArrayList<>();
        for (Path sweep : List.of(kafka, nats)) {
            curves.addAll(LoadCurve.of(SweepFolder.read(sweep, new ArrayList<>())));
        }
        Map<DurabilityCell, String> labels = DurabilityCell.labels(curves.stream().map(LoadCurve::cell).toList());

        XYChart chart = LoadCharts.latencyAgainstLoad(curves, labels).xchart();

        List<String> inLegend = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend)
                .map(XYSeries::getName).toList();
        assertEquals(List.of("kafka", "nats"), inLegend, "one entry per line: its p99");
        XYSeries p99 = chart.getSeriesMap().get("kafka");
        assertEquals("[1000.0, 2000.0, 4000.0, 8000.0]", Arrays.toString(p99.getXData()));
        assertEquals("[1.0, 2.0, 4.0, 60.0]", Arrays.toString(p99.getYData()));
        assertEquals("[1000.0, 2000.0, 2000.0, 4000.0, 8000.0, 8000.0]",
                Arrays.toString(chart.getSeriesMap().get("kafka p99 runs").getXData()), "each run of each rate");
        assertEquals("[2.0, 3.5, 6.0, 85.0]", Arrays.toString(chart.getSeriesMap().get("kafka p99.9").getYData()));
        assertEquals(List.of(new LoadCharts.Knee(4000, "knee kafka: 4,000/s"), new LoadCharts.Knee(8000, "knee nats: 8,000/s")),
                LoadCharts.knees(curves, LoadCharts.names(curves, labels)));
        assertFalse(chart.getStyler().isXAxisLogarithmic(), "1,000 to 8,000 msg/s: less than a decade");
        assertTrue(chart.getStyler().isYAxisLogarithmic());
    }

    @Test
    void aReportOfSweepsAloneIsTheirChartAndTableWithoutARunPerStep() throws Exception {
        Report.Written written = Report.write(List.of(dir.resolve("sweeps")), dir.resolve("out/sweeps.html"));

        assertEquals(List.of(), written.leftOut());
        assertEquals(List.of(dir.resolve("out/sweeps-charts/latency-against-offered-load.png"),
                dir.resolve("out/sweeps-charts/latency-against-offered-load.svg")), written.chartFiles());
        String page = Files.readString(written.html());
        assertTrue(page.contains("<h2 id=\"offered-load\">Latency against offered load</h2>"), page);
        assertTrue(page.contains("<tr><td>kafka</td><td>kafka</td><td>p99 &lt;= 5 ms</td><td>4,000</td><td>bracketed</td>"
                + "<td>4</td><td>6</td></tr>"), page);
        assertFalse(page.contains("<h2>Over time</h2>") || page.contains("<h2>Latency by percentile</h2>"),
                "no chart per step");
    }

    @Test
    void aSweepBesideRunsIsDrawnApartFromThem() throws Exception {
        Path mixed = dir.resolve("mixed");
        Fixtures.run(mixed.resolve("1-run"), "nats", 200);
        Fixtures.sweep(mixed.resolve("2-sweep"), "nats", Map.of("acks", "0"), 1000, new double[] {1000, 0.1, 0.2, 0.3});

        Report.Written written = Report.write(List.of(mixed), dir.resolve("out/mixed.html"));

        String page = Files.readString(written.html());
        assertTrue(page.contains("<p class=\"note\">1 run; written "), page.substring(0, 600));
        assertTrue(page.contains("<h2 id=\"offered-load\">") && page.contains("<h2>Over time</h2>"));
    }

    @Test
    void aDamagedSweepJsonIsNamedAndItsStepsAreNotTakenForRuns() throws Exception {
        Path damaged = Fixtures.sweep(dir.resolve("damaged"), "nats", Map.of("acks", "0"), 1000,
                new double[] {1000, 0.1, 0.2, 0.3});
        Files.writeString(damaged.resolve("sweep.json"), "{\"steps\": [{\"number\": 1,");

        Report.Written written = Report.write(List.of(damaged), dir.resolve("out/damaged.html"));

        assertEquals(List.of(damaged.resolve("sweep.json") + ": not JSON as msgbench writes it (cut short by a full disk or "
                + "a power cut, or edited?); left out of the report: its latency against offered load"), written.leftOut());
        assertEquals(List.of(), written.chartFiles());
        Files.writeString(damaged.resolve("sweep.json"), "");
        assertEquals(List.of(damaged.resolve("sweep.json") + ": holds no steps (empty: cut short by a full disk or a power "
                + "cut?); left out of the report: its latency against offered load"),
                Report.write(List.of(damaged), dir.resolve("out/empty.html")).leftOut());
    }
}
