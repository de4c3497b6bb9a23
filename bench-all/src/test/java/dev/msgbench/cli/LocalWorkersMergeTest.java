package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.workload.MeasuredLatency;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * The local proof of --workers: four worker processes, each started with the command line of the
 * Kubernetes Job and the environment it gives (JOB_COMPLETION_INDEX), against one nats-server,
 * all with one --start-at; then merge. The merged result must be the workers' exactly.
 */
@NeedsBroker
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LocalWorkersMergeTest {

    private static final int WORKERS = 4;
    private static final double WARMUP_SECONDS = 1;

    @TempDir
    Path dir;

    @Test
    void fourWorkersMergeIntoOneResultWhoseCountsAndHistogramAreExactlyTheirSums() throws Exception {
        Path results = dir.resolve("results");
        // the JVMs start together on a busy machine; each must be connected before the start
        Instant startAt = Instant.now().plusSeconds(25).truncatedTo(ChronoUnit.SECONDS);
        try (LocalNatsServer server = LocalNatsServer.start(NatsServerSpec.defaults().withLogDir(dir.resolve("logs")))) {
            Path argsFile = dir.resolve("workload.args");
            Files.write(argsFile, List.of("e2e", "--system", "nats", "--url", server.url(), "--workers",
                    String.valueOf(WORKERS), "--producers", "4", "--consumers", "4", "--rate", "400", "--warmup", "1s",
                    "--duration", "3s", "--progress-interval", "0", "--start-at", startAt.toString()),
                    StandardCharsets.UTF_8);
            List<Process> workers = new ArrayList<>();
            try {
                for (int index = 0; index < WORKERS; index++) {
                    workers.add(launchWorker(index, argsFile, results));
                }
                for (int index = 0; index < WORKERS; index++) {
                    Process worker = workers.get(index);
                    assertTrue(worker.waitFor(150, TimeUnit.SECONDS), "worker " + index + " ended");
                    assertEquals(0, worker.exitValue(), "worker " + index + ": "
                            + Files.readString(dir.resolve("worker-" + index + ".log")));
                }
            } finally {
                workers.forEach(Process::destroyForcibly);
            }
        }

        Path merged = dir.resolve("merged");
        List<String> mergeArgs = new ArrayList<>(List.of("merge"));
        for (int index = 0; index < WORKERS; index++) {
            mergeArgs.add(results.resolve("worker-" + index).toString());
        }
        mergeArgs.addAll(List.of("--output", merged.toString()));
        CliRun merge = CliRun.of(mergeArgs.toArray(new String[0]));
        assertEquals(0, merge.exitCode, merge.toString());

        RunResult result = ResultFiles.readResult(merged);
        Counts sum = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        Histogram expected = Recorders.newHistogram();
        for (int index = 0; index < WORKERS; index++) {
            Path worker = results.resolve("worker-" + index);
            RunResult w = ResultFiles.readResult(worker);
            sum = add(sum, w.counts());
            assertTrue(MeasuredLatency.addTo(expected, worker, WARMUP_SECONDS));
            Map<?, ?> start = (Map<?, ?>) w.loadGenerator().get("start");
            assertEquals(startAt.toString(), start.get("askedStart"), "worker " + index);
            assertTrue(((Number) start.get("latenessMs")).doubleValue() < 1000, "worker " + index + " started on time");
            Map<?, ?> listed = (Map<?, ?>) ((List<?>) result.loadGenerator().get("workers")).get(index);
            assertEquals(index, listed.get("workerIndex"));
            assertEquals(start, listed.get("start"), "the merged result says how each worker started");
        }
        assertEquals(sum, result.counts(), "every count is the sum of the workers'");
        assertEquals(400 * 3, result.counts().measuredSent(), "the workers together sent the one schedule's measured part");
        assertEquals(0, result.counts().lost());

        Histogram mergedLatency = Recorders.newHistogram();
        assertTrue(MeasuredLatency.addTo(mergedLatency, merged, WARMUP_SECONDS));
        assertEquals(expected.getTotalCount(), mergedLatency.getTotalCount());
        assertEquals(expected.getMaxValue(), mergedLatency.getMaxValue());
        for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
            assertEquals(expected.getValueAtPercentile(p.getValue()), mergedLatency.getValueAtPercentile(p.getValue()),
                    p.getKey());
        }
        assertEquals(Percentiles.inMillis(expected), result.latenciesMs().latency(),
                "result.json's percentiles are those of the added histograms");

        CliRun report = CliRun.of("report", merged.toString());
        assertEquals(0, report.exitCode, report.toString());
        CliRun compare = CliRun.of("compare", results.resolve("worker-0").toString(), merged.toString());
        assertTrue(compare.exitCode == 0 || compare.exitCode == 1, compare.toString());
        assertTrue(compare.out.contains("nats"), compare.toString());
    }

    /** One worker as the Job starts it: the same arguments, its index in the environment. */
    private Process launchWorker(int index, Path argsFile, Path results) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(WorkerLaunch.args(argsFile.toString(), results.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker-" + index + ".log").toFile());
        builder.environment().put(WorkerOptions.INDEX_ENV, String.valueOf(index));
        return builder.start();
    }

    private static Counts add(Counts a, Counts b) {
        return new Counts(a.sent() + b.sent(), a.acknowledged() + b.acknowledged(), a.sendErrors() + b.sendErrors(),
                a.received() + b.received(), a.acknowledgedLost() + b.acknowledgedLost(),
                a.unacknowledgedLost() + b.unacknowledgedLost(), a.duplicated() + b.duplicated(),
                a.reordered() + b.reordered(), a.late() + b.late(), a.unsent() + b.unsent(), a.foreign() + b.foreign(),
                a.measuredSent() + b.measuredSent());
    }
}
