package dev.msgbench.cli.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.loopback.LoopbackSystem;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.run.IntervalFigures;
import dev.msgbench.core.run.LiveFigures;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunContext;
import dev.msgbench.core.run.RunPhase;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.TakesSeconds;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** The live figures of a real run on the loopback system, scraped over HTTP as Prometheus would. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PrometheusFiguresTest {

    private static final List<String> COUNTERS = List.of("msgbench_sent_total", "msgbench_received_total",
            "msgbench_duplicated_total", "msgbench_reordered_total", "msgbench_send_errors_total");

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void scrapesDuringARunShowItAdvanceAndTheLastOneHasResultJsonsCounts() throws Exception {
        RunSpec config = new RunSpec("e2e", "loopback", new Pacing.FixedRate(2_000, Arrival.UNIFORM,
                Duration.ofMillis(500), Duration.ofMillis(2000)), 256, 1, 1, 42, Duration.ofSeconds(10),
                Duration.ofSeconds(10), dir, false, Map.of("local", true));
        SynchronousQueue<RunPhase> intervals = new SynchronousQueue<>();
        Semaphore scraped = new Semaphore(0);
        List<Scrape> scrapes = new ArrayList<>();
        List<RunPhase> phases = new ArrayList<>();
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, quiet())) {
            LoadRun run = new LoadRun(config, RunContext.NONE.withLiveFigures(heldForTheTest(endpoint.figures(), intervals,
                    scraped)), new LoopbackSystem(), NanoClock.system(0), quiet(), null, false);
            CompletableFuture<Void> running = CompletableFuture.runAsync(() -> execute(run));
            // one scrape of each interval the run reports, until its last
            for (RunPhase phase = null; phase != RunPhase.DONE; ) {
                phase = intervals.poll(20, TimeUnit.SECONDS);
                assertNotNull(phase, "no interval reported within 20 s");
                phases.add(phase);
                scrapes.add(Scrape.of(endpoint.url()));
                scraped.release();
            }
            running.get(20, TimeUnit.SECONDS);

            Scrape last = scrapes.get(scrapes.size() - 1);
            JsonNode counts = ResultFiles.json().readTree(dir.resolve("result.json").toFile()).get("counts");
            assertEquals(counts.get("sent").asDouble(), last.value("msgbench_sent_total"), last.text());
            assertEquals(counts.get("received").asDouble(), last.value("msgbench_received_total"), last.text());
            assertEquals(5_000, counts.get("sent").asLong());
            assertEquals(1, last.value("msgbench_phase{msgbench_phase=\"done\"}"));
            assertEquals(0, last.value("msgbench_rate_messages_per_second{side=\"target\"}"), "nothing asked once over");
        }
        // warm-up 0.5 s, measured 2 s: the interval from 0 to 1 s began in the warm-up, the next (1 to 2 s)
        // is measured; the run ends half a second after it
        assertEquals(List.of(RunPhase.WARM_UP, RunPhase.MEASURED), phases.subList(0, 2), phases.toString());
        assertEquals(RunPhase.DONE, phases.get(phases.size() - 1), phases.toString());
        for (int i = 0; i < scrapes.size(); i++) {
            assertEquals(1, scrapes.get(i).value("msgbench_phase{msgbench_phase=\"" + phases.get(i).label() + "\"}"),
                    scrapes.get(i).text());
        }
        for (int i = 1; i < scrapes.size(); i++) {
            for (String counter : COUNTERS) {
                assertTrue(scrapes.get(i).value(counter) >= scrapes.get(i - 1).value(counter),
                        counter + " went back between scrapes " + (i - 1) + " and " + i + ":\n" + scrapes.get(i).text());
            }
        }
        Scrape measuring = scrapes.stream().filter(s -> s.value("msgbench_phase{msgbench_phase=\"measured\"}") == 1)
                .findFirst().orElseThrow();
        assertEquals("msgbench_run_info{broker_version=\"none (in-process)\",client=\"msgbench loopback\","
                        + "command=\"e2e\",consumers=\"1\",durability=\"acks=none (no broker: messages go from thread "
                        + "to thread in this JVM)\",load=\"2,000 msg/s uniform for 2 s after 0.5 s warm-up\","
                        + "producers=\"1\",size_bytes=\"256\",system=\"loopback\"}",
                measuring.withName("msgbench_run_info"));
        assertEquals(2_000, measuring.value("msgbench_rate_messages_per_second{side=\"target\"}"));
        assertTrue(measuring.value("msgbench_interval_latency_seconds{percentile=\"max\",time=\"response\"}")
                >= measuring.value("msgbench_interval_latency_seconds{percentile=\"p50\",time=\"response\"}"),
                measuring.text());
    }

    @Test
    void aFaultIsCountedByKindNodeAndOutcome() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        PrometheusFigures figures = new PrometheusFigures(registry);
        figures.fault(new FaultEvent("pause=2s@5s", "pause", 1, 5.0, 5.001, 7.0, FaultEvent.DONE, null, null));
        figures.fault(new FaultEvent("kill@9s:node=leader", "kill", 2, 9.0, null, null, "failed: no such node", null,
                null));

        Scrape scrape = Scrape.parse(text(registry));
        assertEquals(1, scrape.value("msgbench_faults_total{kind=\"pause\",node=\"1\",outcome=\"done\"}"));
        assertEquals(1, scrape.value("msgbench_faults_total{kind=\"kill\",node=\"2\",outcome=\"failed\"}"));
    }

    @Test
    void aSystemThatAcknowledgesHasAcknowledgedAndUnacknowledgedCounts() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        PrometheusFigures figures = new PrometheusFigures(registry);
        RunSpec config = new RunSpec("throughput", "kafka", new Pacing.Unpaced(1_000, 10, Duration.ofSeconds(10),
                false), 100, 1, 1, 42, Duration.ofSeconds(10), Duration.ofSeconds(10), dir, false, Map.of());
        figures.started(config, new SystemInfo("kafka", "kafka-clients 4", "4", Map.of("acks", "all"), Map.of(), true));
        IntervalFigures.Percentiles none = new IntervalFigures.Percentiles(0, -1, -1, -1, -1, -1);
        figures.interval(new IntervalFigures(RunPhase.MEASURED, 1_000_000_000L, 1_000_000_000L,
                new StreamSnapshot(-1, 1_000, 900, 10, 800, 0, 0, 0, 0), Double.NaN,
                none, none));

        Scrape scrape = Scrape.parse(text(registry));
        assertEquals(900, scrape.value("msgbench_acknowledged_total"));
        assertEquals(90, scrape.value("msgbench_unacknowledged"));
        assertEquals(200, scrape.value("msgbench_in_flight"));
        assertTrue(Double.isNaN(scrape.value("msgbench_rate_messages_per_second{side=\"target\"}")), scrape.text());
        assertTrue(Double.isNaN(scrape.value("msgbench_interval_latency_seconds{percentile=\"p99\",time=\"response\"}")),
                scrape.text());
        assertTrue(scrape.withName("msgbench_run_info").contains("load=\"as fast as accepted, 1,000 messages\""),
                scrape.text());
    }

    /**
     * Tells the test each interval's phase once the endpoint has it, and holds the monitor until
     * the test has scraped it, so that each scrape shows exactly that interval.
     */
    private static LiveFigures heldForTheTest(LiveFigures figures, SynchronousQueue<RunPhase> intervals,
                                              Semaphore scraped) {
        return new LiveFigures() {
            @Override
            public void started(RunSpec config, SystemInfo info) {
                figures.started(config, info);
            }

            @Override
            public void interval(IntervalFigures interval) {
                figures.interval(interval);
                try {
                    if (!intervals.offer(interval.phase(), 20, TimeUnit.SECONDS)
                            || !scraped.tryAcquire(20, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test took no scrape within 20 s");
                    }
                } catch (InterruptedException e) {
                    // the run's end interrupts the monitor: the last interval is taken after
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void fault(FaultEvent event) {
                figures.fault(event);
            }
        };
    }

    private static void execute(LoadRun run) {
        try {
            run.execute();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(PrometheusRegistry registry) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
