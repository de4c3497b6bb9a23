package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import dev.msgbench.cli.workers.WorkerLaunch;
import dev.msgbench.cli.workers.WorkerOptions;
import dev.msgbench.cli.workload.MeasuredLatency;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * Worker processes of one nats run on this machine, started as the Kubernetes Job starts them (the
 * same arguments from one argument file, JOB_COMPLETION_INDEX in the environment, one --start-at),
 * optionally each behind a prefix such as {@code ip netns exec NS}; then merged and checked against
 * the workers' own results.
 */
final class LocalWorkers {

    static final int WORKERS = 4;
    static final int RATE = 400;
    static final int DURATION_SECONDS = 3;
    private static final double WARMUP_SECONDS = 1;

    /** Far enough ahead for every worker JVM to start and connect on a busy machine. */
    private static final Duration START_LEAD = Duration.ofSeconds(20);

    private final Path dir;
    private final Path results;
    private Instant startAt;

    LocalWorkers(Path dir) {
        this.dir = dir;
        this.results = dir.resolve("results");
    }

    Path worker(int index) {
        return results.resolve("worker-" + index);
    }

    /** Runs the workers against {@code url}, worker I behind {@code prefixes.get(I)}, and waits for all to succeed. */
    void run(String url, List<List<String>> prefixes) throws Exception {
        // taken once the broker is up, so its start does not eat into the workers' lead
        startAt = Instant.now().plus(START_LEAD).truncatedTo(ChronoUnit.SECONDS);
        Path argsFile = dir.resolve("workload.args");
        Files.write(argsFile, List.of("e2e", "--system", "nats", "--url", url, "--workers", String.valueOf(WORKERS),
                "--producers", "4", "--consumers", "4", "--rate", String.valueOf(RATE), "--warmup", "1s",
                "--duration", DURATION_SECONDS + "s", "--progress-interval", "0", "--start-at", startAt.toString()),
                StandardCharsets.UTF_8);
        List<Process> workers = new ArrayList<>();
        try {
            for (int index = 0; index < WORKERS; index++) {
                workers.add(launch(index, prefixes.get(index), argsFile));
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

    /** One worker as the Job starts it: the same arguments, its index in the environment. */
    private Process launch(int index, List<String> prefix, Path argsFile) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(WorkerLaunch.args(argsFile.toString(), results.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker-" + index + ".log").toFile());
        builder.environment().put(WorkerOptions.INDEX_ENV, String.valueOf(index));
        return builder.start();
    }

    /**
     * Merges the workers' folders and asserts that the merged counts are the sum of theirs and the
     * merged latency histogram the sum of the histograms in their latency.hlog files, lost 0.
     *
     * @return the merged folder
     */
    Path mergeAndCheck() throws Exception {
        Path merged = dir.resolve("merged");
        List<String> mergeArgs = new ArrayList<>(List.of("merge"));
        for (int index = 0; index < WORKERS; index++) {
            mergeArgs.add(worker(index).toString());
        }
        mergeArgs.addAll(List.of("--output", merged.toString()));
        CliRun merge = CliRun.of(mergeArgs.toArray(new String[0]));
        assertEquals(0, merge.exitCode, merge.toString());

        RunResult result = ResultFiles.readResult(merged);
        Counts sum = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        Histogram expected = Recorders.newHistogram();
        for (int index = 0; index < WORKERS; index++) {
            Path worker = worker(index);
            RunResult w = ResultFiles.readResult(worker);
            sum = add(sum, w.counts());
            assertTrue(MeasuredLatency.addTo(expected, worker, WARMUP_SECONDS));
            Map<?, ?> start = (Map<?, ?>) w.loadGenerator().get("start");
            assertEquals(startAt.toString(), start.get("askedStart"), "worker " + index);
            assertTrue(((Number) start.get("latenessMs")).doubleValue() < 1000, "worker " + index + " started on time");
            Map<?, ?> listed = (Map<?, ?>) ((List<?>) result.loadGenerator().get("workers")).get(index);
            assertEquals(index, listed.get("workerIndex"));
            assertEquals(start, listed.get("start"), "the merged result says how each worker started");
            assertEquals(w.environment().get("host"), listed.get("host"), "and where each ran");
        }
        assertEquals(sum, result.counts(), "every count is the sum of the workers'");
        assertEquals(RATE * DURATION_SECONDS, result.counts().measuredSent(),
                "the workers together sent the one schedule's measured part");
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
        return merged;
    }

    private static Counts add(Counts a, Counts b) {
        return new Counts(a.sent() + b.sent(), a.acknowledged() + b.acknowledged(), a.sendErrors() + b.sendErrors(),
                a.received() + b.received(), a.acknowledgedLost() + b.acknowledgedLost(),
                a.unacknowledgedLost() + b.unacknowledgedLost(), a.duplicated() + b.duplicated(),
                a.reordered() + b.reordered(), a.late() + b.late(), a.unsent() + b.unsent(), a.foreign() + b.foreign(),
                a.measuredSent() + b.measuredSent());
    }
}
