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

import dev.msgbench.core.testing.InMemorySystem;

/**
 * The price-of-safety view of a workload's runs: Kafka at its default flush and at an fsync per
 * message, each with a run at a stated rate, a power loss of one node and one of every node, and
 * a sweep of the safe one; the power-loss runs carry the fault as the power-loss fault will write
 * it. A real kill run of the engine stands for what result.json holds today.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PriceOfSafetyTest {

    private static final Map<String, Object> DEFAULT_FLUSH = Fixtures.KAFKA_DEFAULT_FLUSH;

    @TempDir
    static Path dir;

    static Path workload;
    static Path sweep;

    @BeforeAll
    static void runTheWorkload() throws Exception {
        workload = Fixtures.priceOfSafety(dir.resolve("price-of-safety"));
        sweep = Fixtures.sweep(dir.resolve("sweep-kafka-flush"), "kafka", Fixtures.KAFKA_FLUSH_EACH, 4000,
                new double[] {1000, 1, 6, 7}, new double[] {4000, 2, 7, 9}, new double[] {8000, 9, 90, 99});
    }

    private static List<RunFolder> runs() {
        return RunFolder.findReadable(List.of(workload), "report DIR", new ArrayList<>());
    }

    private static List<LoadCurve> curves() {
        return LoadCurve.of(SweepFolder.read(sweep, new ArrayList<>()));
    }

    @Test
    void eachSettingIsOneCellWithItsLatencyItsKneeAndItsLosses() {
        List<SafetyCell> cells = SafetyCells.of(runs(), curves());

        assertEquals(2, cells.size());
        SafetyCell unsafe = cells.get(0);
        SafetyCell safe = cells.get(1);
        assertEquals("kafka", unsafe.cell().system());
        assertEquals(200.0, unsafe.latency().rateMsgsPerSec());
        assertEquals(2.0, unsafe.latency().ms("p99"), 0.01, "each message took its 2 ms of service");
        assertEquals(4.0, safe.latency().ms("p99"), 0.01);
        assertEquals(List.of(), unsafe.knees());
        assertEquals(List.of(4000.0), safe.knees());
        assertEquals(List.of(new LossKey("power-loss", true), new LossKey("power-loss", false)),
                List.copyOf(unsafe.losses().keySet()), "the loss that tells more first");
        assertEquals(new LossFigure(57, 400, 1, 0), unsafe.losses().get(new LossKey("power-loss", true)));
        assertEquals(new LossFigure(0, 400, 1, 0), safe.losses().get(new LossKey("power-loss", true)));
        assertEquals(Map.of(unsafe.cell(), "kafka flush.messages=never", safe.cell(), "kafka flush.messages=1"),
                DurabilityCell.labels(List.of(unsafe.cell(), safe.cell())));
    }

    @Test
    void theTableHasARowPerCellAndAColumnPerLoss() {
        List<SafetyCell> cells = SafetyCells.of(runs(), curves());

        String table = SafetyTable.html(cells, DurabilityCell.labels(cells.stream().map(SafetyCell::cell).toList()));

        assertTrue(table.contains("<th>knee msg/s</th><th>acknowledged lost after a power loss of every node</th>"
                + "<th>acknowledged lost after a power loss of one node</th></tr>"), table);
        String settings = cells.get(0).cell().settings();
        assertTrue(table.contains("<tr><td title=\"" + settings + "\">kafka flush.messages=never</td><td>200</td>"), table);
        assertTrue(table.contains("<td>-</td><td class=\"warn\">57 of 400 (14.25%)</td><td>0 of 400</td></tr>"), table);
        assertTrue(table.contains("<td>4,000</td><td>0 of 400</td><td>0 of 400</td></tr>"), table);
    }

    @Test
    void thePictureIsLatencyAndTheKneeAgainstTheShareLostAfterAPowerLossOfEveryNode() {
        List<SafetyCell> cells = SafetyCells.of(runs(), curves());

        XYChart chart = SafetyChart.chart(cells, DurabilityCell.labels(cells.stream().map(SafetyCell::cell).toList()))
                .xchart();

        assertEquals("acknowledged messages lost after a power loss of every node (% of those acknowledged)",
                chart.getXAxisTitle());
        XYSeries unsafe = chart.getSeriesMap().get("kafka flush.messages=never");
        assertEquals(14.25, unsafe.getXData()[0]);
        assertEquals(2.0, unsafe.getYData()[0], 0.01);
        XYSeries knee = chart.getSeriesMap().get("kafka flush.messages=1 (knee)");
        assertEquals("[0.0]/[4000.0] on the right axis", Arrays.toString(knee.getXData()) + "/"
                + Arrays.toString(knee.getYData()) + (knee.getYAxisGroup() == 1 ? " on the right axis" : ""));
        assertEquals("highest rate sustained: the knee, else a throughput run's (msg/s)", chart.getYAxisGroupTitle(1));
        assertFalse(knee.isShowInLegend(), "the cell is named once, by its latency");
    }

    @Test
    void theReportOfTheWorkloadAndItsSweepDrawsTheViewFirst() throws Exception {
        Report.Written written = Report.write(List.of(workload, sweep), dir.resolve("out/report.html"));

        assertEquals(List.of(), written.leftOut());
        String page = Files.readString(written.html());
        int safety = page.indexOf("<h2 id=\"price-of-safety-view\">The price of safety</h2>");
        int load = page.indexOf("<h2 id=\"offered-load\">Latency against offered load</h2>");
        int percentiles = page.indexOf("<h2>Latency by percentile</h2>");
        assertTrue(safety > 0 && safety < load && load < percentiles, "the views of all runs come first");
        assertTrue(page.contains("<img class=\"chart\" id=\"price-of-safety\""), "its picture");
        assertTrue(written.chartFiles().contains(dir.resolve("out/report-charts/price-of-safety.svg")));
    }

    @Test
    void aKillOfTheEngineGivesItsRunsAcknowledgedLossAsTheKillsFigure() throws Exception {
        // the in-memory system acknowledges messages 500 to 509 and loses them; the kill holds the rest until the restart
        Path killed = Fixtures.faulted(dir.resolve("kills/1-kill"), "kill@1s:restart-after=1s",
                clock -> new InMemorySystem(clock).dropping(s -> s >= 500 && s < 510));
        Fixtures.setting(killed, "kafka", DEFAULT_FLUSH);
        Fixtures.setting(Fixtures.run(dir.resolve("kills/2-steady"), "kafka", 2000), "kafka", DEFAULT_FLUSH);

        List<SafetyCell> cells = SafetyCells.of(RunFolder.findReadable(List.of(dir.resolve("kills")), "report DIR",
                new ArrayList<>()), List.of());

        assertEquals(1, cells.size());
        LossFigure loss = cells.get(0).losses().get(new LossKey("kill", false));
        assertEquals(10, loss.acknowledgedLost());
        assertEquals(1_200, loss.acknowledged(), "6 s at 200 msg/s");
        assertEquals("acknowledged lost after a kill of one node", "acknowledged lost after a " + new LossKey("kill", false)
                .title());
    }

    @Test
    void aThroughputRunGivesTheHighestRateAndARunOnTheFaultLayerItsCostButNotTheLatency() throws Exception {
        Path base = dir.resolve("workload-run");
        Fixtures.setting(Fixtures.run(base.resolve("1-at-rate"), "redis-streams", 1000), "redis-streams", Fixtures.AOF_EVERYSEC);
        Path layer = Fixtures.run(base.resolve("2-on-the-layer"), "redis-streams", 3000);
        Fixtures.setting(layer, "redis-streams", Fixtures.AOF_EVERYSEC);
        Fixtures.editBroker(layer, broker -> broker.put("forgetfulDisks", true).put("nodes", 1));
        Path throughput = Fixtures.run(base.resolve("3-highest-rate"), "redis-streams", 1000);
        Fixtures.setting(throughput, "redis-streams", Fixtures.AOF_EVERYSEC);
        Fixtures.editResult(throughput, json -> json.putObject("throughput").put("sent", 90_000).put("received", 90_000)
                .put("publisherMsgsPerSec", 30_000.0).put("consumerMsgsPerSec", 29_000.0));
        Path cut = Fixtures.run(base.resolve("4-power-loss"), "redis-streams", 1000);
        Fixtures.setting(cut, "redis-streams", Fixtures.AOF_EVERYSEC);
        Fixtures.lostAfter(cut, "power-loss", "power-loss@1s", 12);
        Fixtures.editBroker(cut, broker -> broker.put("nodes", 1));

        List<SafetyCell> cells = SafetyCells.of(RunFolder.findReadable(List.of(base), "report DIR", new ArrayList<>()),
                List.of());

        assertEquals(1, cells.size());
        SafetyCell cell = cells.get(0);
        assertEquals(1.0, cell.latency().ms("p99"), 0.01, "the run on plain disks alone");
        assertEquals(1, cell.latency().runs());
        assertEquals(3.0, cell.onLayer().ms("p99"), 0.01);
        assertEquals(List.of(29_000.0), cell.highestRates(), "what was delivered, the lower end");
        assertEquals(29_000.0, cell.rate());
        assertEquals(List.of(new LossKey("power-loss", true)), List.copyOf(cell.losses().keySet()),
                "the one node of a one-node broker is every node");
        String table = SafetyTable.html(cells, DurabilityCell.labels(List.of(cell.cell())));
        assertTrue(table.contains("p99 on the fault layer ms</th><th title=\"a throughput run: acknowledged and "
                + "delivered, the lower of its two ends\">highest rate msg/s</th><th>acknowledged lost after a power loss "
                + "of every node</th>"), "no knee column without a sweep: " + table);
        assertTrue(table.contains("<td>3.000</td><td>29,000</td><td class=\"warn\">12 of 400 (3.00%)</td>"), table);
        XYSeries rate = SafetyChart.chart(cells, DurabilityCell.labels(List.of(cell.cell()))).xchart().getSeriesMap()
                .get("redis-streams (highest rate)");
        assertEquals(29_000.0, rate.getYData()[0]);
    }

    @Test
    void aCellIsNamedByTheSettingsThatDifferWithoutTheirExplanations() {
        DurabilityCell r1 = new DurabilityCell("jetstream", Map.of("acks", "1", "publisherAcknowledgement",
                "PubAck: stored by the one replica", "sync", "interval 2m", "replicas", "1"));
        DurabilityCell r3 = new DurabilityCell("jetstream", Map.of("acks", "all", "publisherAcknowledgement",
                "PubAck: stored by a quorum, 2 of 3 replicas", "sync", "always (fsync before each PubAck)", "replicas", "3"));
        DurabilityCell quorum = new DurabilityCell("rabbitmq", Map.of("confirmedWhen",
                "a quorum of the queue's replicas has written the message to disk (fsync)"));
        DurabilityCell classic = new DurabilityCell("rabbitmq", Map.of("confirmedWhen",
                "the queue has written the message to disk (fsync, batched by the broker)"));

        Map<DurabilityCell, String> labels = DurabilityCell.labels(List.of(r1, r3, quorum, classic));

        assertEquals(List.of("acks=1", "replicas=1", "sync=interval 2m"), sorted(labels.get(r1), "jetstream "));
        assertEquals(List.of("acks=all", "replicas=3", "sync=always"), sorted(labels.get(r3), "jetstream "));
        assertEquals("rabbitmq confirmedWhen=a quorum of the queue's replicas has written the message to disk",
                labels.get(quorum), "where only a sentence tells them apart, the sentence it is");
    }

    private static List<String> sorted(String label, String system) {
        assertTrue(label.startsWith(system), label);
        return Arrays.stream(label.substring(system.length()).split(", ")).sorted().toList();
    }

    @Test
    void aLoneRunWithAFaultIsNoPriceOfSafety() throws Exception {
        Path killed = Fixtures.faulted(dir.resolve("lone/kill"), "kill@1s:restart-after=1s", InMemorySystem::new);

        assertEquals(List.of(), SafetyCells.of(List.of(RunFolder.read(killed, "kill")), List.of()));
        String page = Files.readString(Report.write(List.of(killed), dir.resolve("out/lone.html")).html());
        assertFalse(page.contains("price-of-safety"), "nothing to set its loss beside");
    }
}
