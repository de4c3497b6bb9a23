package dev.msgbench.cli.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.report.IntervalSeries;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.BrokerByteFigures;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.DeliveryLine;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.Latencies;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.Rates;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.Throughput;
import dev.msgbench.core.result.Workload;

/**
 * The workers of one run written as one results folder: histograms added kind by kind (never
 * percentiles; a transactional run's commit times from each worker's commit.hlog), counts summed
 * (the aborted ones too), the broker's byte counts summed (each worker counts its own topics), and
 * a latency.hlog whose plain-tagged intervals are the sums of the workers' same seconds, followed
 * by each worker's own intervals tagged "wI/kind".
 */
public final class MergedRun {

    private static final long SECOND_MILLIS = 1000;

    private final List<WorkerFolder> workers;
    private final Map<HistogramKind, Histogram> measured = new EnumMap<>(HistogramKind.class);

    /** @param workers of one run, ordered by index ({@link SameRun#check}) */
    MergedRun(List<WorkerFolder> workers) {
        this.workers = workers;
        for (HistogramKind kind : HistogramKind.values()) {
            measured.put(kind, Recorders.newHistogram());
        }
        for (WorkerFolder worker : workers) {
            worker.measured().forEach((kind, histogram) -> measured.get(kind).add(histogram));
        }
        if (workerWithoutCommits().isEmpty()) {
            workers.stream().filter(w -> w.commits() != null).forEach(w -> measured.get(HistogramKind.COMMIT).add(w.commits()));
        }
    }

    /** A worker that timed commits and kept only their percentiles (a version before commit.hlog): none can be added. */
    private Optional<WorkerFolder> workerWithoutCommits() {
        return workers.stream().filter(w -> w.result().latenciesMs().commit() != null && w.commits() == null).findFirst();
    }

    /** Writes result.json, the .hgrm files and latency.hlog into {@code dir}; returns the result. */
    RunResult write(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        writeLog(dir);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("intervalLog", IntervalLog.FILE_NAME);
        measured.forEach((kind, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                ResultFiles.writeHgrm(dir.resolve(kind.tag() + ".hgrm"), histogram);
                files.put(kind.tag(), kind.tag() + ".hgrm");
            }
        });
        Histogram commits = measured.get(HistogramKind.COMMIT);
        if (commits.getTotalCount() > 0) {
            ResultFiles.writeHistogramLog(dir.resolve(ResultFiles.COMMIT_LOG), HistogramKind.COMMIT, commits);
            files.put("commitLog", ResultFiles.COMMIT_LOG);
        }
        RunResult result = result(files);
        ResultFiles.writeResult(dir, result);
        return result;
    }

    private RunResult result(Map<String, String> files) {
        RunResult first = workers.get(0).result();
        List<String> warnings = new ArrayList<>();
        for (WorkerFolder worker : workers) {
            worker.result().warnings().forEach(w -> warnings.add("worker " + worker.index() + ": " + w));
        }
        workerWithoutCommits().ifPresent(w -> warnings.add("worker " + w.index() + " has no " + ResultFiles.COMMIT_LOG
                + " (a version that kept only the commits' percentiles): the merged result has no commit times"));
        Map<String, Object> brokerBytes = brokerBytes(warnings);
        Map<String, Object> loadGenerator = new LinkedHashMap<>();
        loadGenerator.put("workers", workerList());
        Latencies latencies = new Latencies(Percentiles.inMillis(measured.get(HistogramKind.LATENCY)),
                Percentiles.inMillis(measured.get(HistogramKind.SERVICE)),
                Percentiles.inMillis(measured.get(HistogramKind.SEND_DELAY)),
                Percentiles.inMillis(measured.get(HistogramKind.ACK)),
                measured.get(HistogramKind.COMMIT).getTotalCount() == 0 ? null
                        : Percentiles.inMillis(measured.get(HistogramKind.COMMIT)));
        return new RunResult(RunResult.SCHEMA_VERSION, first.tool(), first.toolVersion(), first.command(),
                RunStatus.COMPLETE, null, earliest(), latest(), first.system(), workload(), first.durability(),
                settings(first), first.versions(), first.broker(), first.environment(), counts(), rates(), latencies,
                throughput(), loadGenerator, warnings, files, List.of(), null, null, null, null, brokerBytes);
    }

    /**
     * Each worker's topics are its own, so the broker's counts of them add up to the run's, as the
     * bytes the workers sent do; the ratio is taken once, of the sums (never an average of ratios).
     * Null where no worker has a count, and, with a warning, where some have none.
     */
    private Map<String, Object> brokerBytes(List<String> warnings) {
        List<Map<String, Object>> counted = workers.stream().map(w -> w.result().brokerBytes()).toList();
        if (counted.stream().allMatch(Objects::isNull)) {
            return null;
        }
        long bytes = 0;
        long sentBytes = 0;
        for (WorkerFolder worker : workers) {
            Map<String, Object> each = worker.result().brokerBytes();
            if (each == null || !(each.get("bytes") instanceof Number b) || !(each.get("sentBytes") instanceof Number s)) {
                warnings.add("worker " + worker.index() + " has no broker byte count: the merged result has none");
                return null;
            }
            bytes += b.longValue();
            sentBytes += s.longValue();
        }
        return BrokerByteFigures.of(String.valueOf(counted.get(0).get("counter")), bytes, sentBytes);
    }

    private List<Map<String, Object>> workerList() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (WorkerFolder worker : workers) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("workerIndex", worker.index());
            entry.put("folder", worker.dir().toAbsolutePath().normalize().toString());
            entry.put("counts", worker.result().counts());
            entry.put("start", worker.result().loadGenerator().get("start"));
            entry.put("host", worker.result().environment() == null ? null : worker.result().environment().get("host"));
            list.add(entry);
        }
        return list;
    }

    /**
     * The first worker's settings, but the threads and connections of all, and what each worker's
     * client counted of redeliveries, each its own.
     */
    private Map<String, Object> settings(RunResult first) {
        Map<String, Object> settings = new LinkedHashMap<>(first.settings());
        if (settings.get(DeliveryLine.KEY) instanceof Map<?, ?> delivery && delivery.get(DeliveryLine.WITNESS) != null) {
            Map<Object, Object> each = new LinkedHashMap<>(delivery);
            List<String> witnesses = new ArrayList<>();
            for (WorkerFolder worker : workers) {
                Object witness = worker.result().settings().get(DeliveryLine.KEY) instanceof Map<?, ?> own
                        ? own.get(DeliveryLine.WITNESS) : null;
                witnesses.add("worker " + worker.index() + ": " + (witness == null ? "none" : witness));
            }
            each.put(DeliveryLine.WITNESS, String.join("; ", witnesses));
            settings.put(DeliveryLine.KEY, each);
        }
        for (String perWorker : List.of("producerThreads", "consumerConnections")) {
            if (settings.get(perWorker) instanceof Number) {
                long total = 0;
                for (WorkerFolder worker : workers) {
                    total += worker.tree().path("settings").path(perWorker).asLong();
                }
                settings.put(perWorker, total);
            }
        }
        return settings;
    }

    private Workload workload() {
        Workload w = workers.get(0).result().workload();
        JsonNode worker = workers.get(0).tree().path("loadGenerator").path("worker");
        double rate = worker.path("totalRateMsgsPerSec").asDouble(0);
        long messages = worker.has("totalMessages") ? worker.path("totalMessages").asLong() : w.messages();
        return new Workload(w.pacing(), rate, messages, w.maxOutstanding(), w.messageSizeBytes(), w.warmupSeconds(),
                w.durationSeconds(), w.arrival(), worker.path("totalProducers").asInt(),
                worker.path("totalConsumers").asInt(), w.seed(), w.drainTimeoutSeconds(), w.warmup(), w.warmupSettled(),
                // the workers' shares of the schedule add up to the one all were given; sizes are each worker's own
                worker.has("totalRateSchedule") ? worker.path("totalRateSchedule").asText() : null, null)
                .withDestinations(w.topics(), w.subscriptionsPerTopic()).withKeys(w.keys(), w.keyCount());
    }

    private Counts counts() {
        long[] sum = new long[13];
        Long aborted = null;
        Long abortedDelivered = null;
        for (WorkerFolder worker : workers) {
            Counts c = worker.result().counts();
            aborted = plus(aborted, c.aborted());
            abortedDelivered = plus(abortedDelivered, c.abortedDelivered());
            long[] each = {c.sent(), c.acknowledged(), c.sendErrors(), c.received(), c.acknowledgedLost(),
                    c.unacknowledgedLost(), c.duplicated(), c.reordered(), c.late(), c.unsent(), c.foreign(),
                    c.measuredSent(), c.deliveriesExpected()};
            for (int i = 0; i < sum.length; i++) {
                sum[i] += each[i];
            }
        }
        // each worker has destinations of its own: the subscriptions are per worker, only the totals add up
        return new Counts(sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], sum[7], sum[8], sum[9], sum[10], sum[11],
                sum[12], null, aborted, abortedDelivered);
    }

    /** A count only some workers have (they aborted none): null where none has it. */
    private static Long plus(Long sum, Long count) {
        if (count == null) {
            return sum;
        }
        return sum == null ? count : Long.valueOf(sum + count);
    }

    /** The workers send side by side: their rates add up; behind schedule is the worst of them. */
    private Rates rates() {
        double target = 0;
        double achieved = 0;
        double received = 0;
        boolean missed = false;
        double behind = 0;
        for (WorkerFolder worker : workers) {
            Rates r = worker.result().rates();
            target += r.targetMsgsPerSec();
            achieved += r.achievedMsgsPerSec();
            received += r.receivedMsgsPerSec();
            missed |= r.targetMissed();
            behind = Math.max(behind, r.maxBehindScheduleMs());
        }
        return new Rates(target, achieved, received, missed, behind);
    }

    private Throughput throughput() {
        if (workers.get(0).result().throughput() == null) {
            return null;
        }
        long sent = 0;
        long received = 0;
        double publishSeconds = 0;
        double consumeSeconds = 0;
        double firstMessageSeconds = 0;
        double[] rates = new double[4];
        for (WorkerFolder worker : workers) {
            Throughput t = worker.result().throughput();
            sent += t.sent();
            received += t.received();
            publishSeconds = Math.max(publishSeconds, t.publishSeconds());
            consumeSeconds = Math.max(consumeSeconds, t.consumeSeconds());
            firstMessageSeconds = Math.max(firstMessageSeconds, t.consumerFirstMessageSeconds());
            rates[0] += t.publisherMsgsPerSec();
            rates[1] += t.publisherMiBPerSec();
            rates[2] += t.consumerMsgsPerSec();
            rates[3] += t.consumerMiBPerSec();
        }
        return new Throughput(sent, received, publishSeconds, rates[0], rates[1], consumeSeconds, rates[2], rates[3], firstMessageSeconds);
    }

    private String earliest() {
        return workers.stream().map(w -> Instant.parse(w.result().startedAt())).min(Instant::compareTo).orElseThrow().toString();
    }

    private String latest() {
        return workers.stream().map(w -> Instant.parse(w.result().finishedAt())).max(Instant::compareTo).orElseThrow().toString();
    }

    /**
     * The summed seconds under the kinds' tags, which report and compare read as any run's, then
     * every worker's own intervals; and intervals.csv, the same seconds' counts summed, with the
     * latency percentiles of the summed latency histograms (never an average of percentiles). A
     * worker's interval (and counts row) goes to the second of the merged log it began in, counted
     * from the worker's own start, and always to the same side of the end of the warm-up as in the
     * worker's log, so the merged log's measured part is exactly the workers'.
     */
    private void writeLog(Path dir) {
        WorkerFolder first = workers.get(0);
        long start = workers.stream().mapToLong(WorkerFolder::logStartMillis).min().orElseThrow();
        long warmupMillis = first.warmupMillis();
        long firstMeasuredSecond = (long) Math.ceil((warmupMillis - 1) / (double) SECOND_MILLIS);
        Map<Long, Map<HistogramKind, Histogram>> seconds = new TreeMap<>();
        Map<Long, long[]> counts = new TreeMap<>();
        // past a run's first hour its intervals are longer than a second (IntervalSpans): the sum spans as long
        Map<Long, Long> lengthSeconds = new TreeMap<>();
        for (WorkerFolder worker : workers) {
            for (WorkerFolder.Interval interval : worker.intervals()) {
                long second = second(interval.startMillis() - worker.logStartMillis(), worker.measured(interval),
                        firstMeasuredSecond);
                seconds.computeIfAbsent(second, s -> new EnumMap<>(HistogramKind.class))
                        .computeIfAbsent(interval.kind(), k -> Recorders.newHistogram()).add(interval.histogram());
                lengthSeconds.merge(second, Math.max(1, Math.round((interval.endMillis() - interval.startMillis())
                        / (double) SECOND_MILLIS)), Math::max);
            }
            for (IntervalSeries.Counts row : worker.counts()) {
                long[] sum = counts.computeIfAbsent(second(Math.round(row.startSeconds() * SECOND_MILLIS),
                        worker.measured(row), firstMeasuredSecond), s -> new long[5]);
                sum[0] += row.sent();
                sum[1] += row.acknowledged();
                sum[2] += row.received();
                sum[3] += row.unreceived();
                sum[4] += row.gaps();
            }
        }
        IntervalLog log = new IntervalLog(dir, start, first.result().workload().warmupSeconds(),
                first.result().workload().durationSeconds());
        try (log) {
            log.comment("merged by msgbench merge from " + workers.size() + " workers; intervals tagged wI/kind are "
                    + "worker I's own, the others their sums by second");
            counts.forEach((second, sum) -> log.writeCounts(start + second * SECOND_MILLIS,
                    start + (second + 1) * SECOND_MILLIS, sum[0], sum[1], sum[2], sum[3], sum[4],
                    seconds.getOrDefault(second, Map.of()).getOrDefault(HistogramKind.LATENCY, Recorders.newHistogram())));
            seconds.forEach((second, kinds) -> kinds.forEach((kind, histogram) ->
                    log.write(kind, histogram, start + second * SECOND_MILLIS,
                            start + (second + lengthSeconds.get(second)) * SECOND_MILLIS)));
            for (WorkerFolder worker : workers) {
                for (WorkerFolder.Interval interval : worker.intervals()) {
                    log.write("w" + worker.index() + "/" + interval.kind().tag(), interval.histogram(),
                            interval.startMillis(), interval.endMillis());
                }
            }
        }
        // the log's writer keeps going past a full disk, as a run's must; a merge has nothing to go on for
        log.notWritten().stream().findFirst().ifPresent(failed -> {
            throw failed;
        });
        if (workers.stream().anyMatch(w -> w.counts().isEmpty())) {
            try {
                // a worker of an older version wrote no intervals.csv: partial sums would say less was counted
                Files.deleteIfExists(dir.resolve(IntervalLog.COUNTS_FILE_NAME));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + dir.resolve(IntervalLog.COUNTS_FILE_NAME), e);
            }
        }
    }

    /** The merged second an interval starting {@code sinceWorkerStartMillis} into its worker's log goes to. */
    private static long second(long sinceWorkerStartMillis, boolean measured, long firstMeasuredSecond) {
        long second = Math.round(sinceWorkerStartMillis / (double) SECOND_MILLIS);
        return measured ? Math.max(second, firstMeasuredSecond) : Math.min(second, firstMeasuredSecond - 1);
    }
}
