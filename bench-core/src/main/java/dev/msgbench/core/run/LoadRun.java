package dev.msgbench.core.run;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.ToolVersion;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.Environment;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.result.Throughput;
import dev.msgbench.core.result.Workload;
import dev.msgbench.core.time.NanoClock;

/**
 * One open-loop measurement: subscribers first, then producer streams on their fixed
 * schedules, then a drain, then results. The engine owns every timestamp; the system under
 * test only moves bytes.
 *
 * <p>Results are written whatever happens after the start: a run that fails or is interrupted
 * leaves its partial results, marked as such.
 */
public final class LoadRun {

    /** Producer threads start this long after they are created, so all begin on schedule. */
    private static final long START_LEAD_NANOS = 50_000_000L;
    private static final long DRAIN_POLL_NANOS = 5_000_000L;
    private static final double RATE_TOLERANCE = 0.01;

    private final RunConfig config;
    private final MessagingSystem system;
    private final NanoClock clock;
    private final NanoClock monitorClock;
    private final HiccupMeter.Pause hiccupPause;
    private final PrintStream out;
    private final PrintStream live;
    private final boolean ansi;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final List<ProducerStream> producers = new ArrayList<>();
    private volatile boolean interrupted;
    private PlainProgress plainProgress;
    private volatile Thread runner;
    /** When consumers started, in consume-after-produce runs; the run's start otherwise. */
    private long consumeStartNanos = Long.MIN_VALUE;
    /** When every publisher's flush returned: the server then has every message sent. */
    private long flushedNanos = Long.MIN_VALUE;

    /**
     * @param out  where the summary goes
     * @param live where the live line goes each second, or null
     * @param ansi whether {@code out} is a terminal (bold warnings)
     */
    public LoadRun(RunConfig config, MessagingSystem system, NanoClock clock, PrintStream out, PrintStream live,
                   boolean ansi) {
        this(config, system, clock, clock, HiccupMeter.PARK, out, live, ansi);
    }

    /**
     * The test seam for a fake clock, on which a sleep moves the time: the progress monitor ticks
     * on {@code monitorClock}, which must wait for the time the producers make rather than make it
     * (else its ticks would run ahead of the schedule), and the hiccup meter pauses with
     * {@code hiccupPause}.
     */
    LoadRun(RunConfig config, MessagingSystem system, NanoClock clock, NanoClock monitorClock, HiccupMeter.Pause hiccupPause,
            PrintStream out, PrintStream live, boolean ansi) {
        this.config = config;
        this.system = system;
        this.clock = clock;
        this.monitorClock = monitorClock;
        this.hiccupPause = hiccupPause;
        this.out = out;
        this.live = live;
        this.ansi = ansi;
    }

    /** Prints the header when sending starts, and plain progress lines where no terminal shows the live line. */
    public LoadRun withPlainProgress(PlainProgress progress) {
        this.plainProgress = progress;
        return this;
    }

    /**
     * Runs, writes the results and prints the summary.
     *
     * @throws UserError         when the system rejects the setup (before anything was measured)
     * @throws RunFailedException when the run failed after starting; partial results are written
     */
    public RunResult execute() throws Exception {
        runner = Thread.currentThread();
        try {
            return executeOnce();
        } finally {
            finished.countDown();
        }
    }

    /**
     * Stops a run in progress (Ctrl+C) and waits until its partial results are written. Safe to
     * call from a shutdown hook; returns at once if the run is not going.
     */
    public void interruptAndAwait(long timeoutMillis) {
        if (runner == null || finished.getCount() == 0) {
            return;
        }
        interrupted = true;
        producers.forEach(ProducerStream::requestStop);
        try {
            finished.await(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private RunResult executeOnce() throws Exception {
        Path dir = config.outputDir();
        Files.createDirectories(dir);
        SplittableRandom seeds = new SplittableRandom(config.seed());
        int runKey = nonZero(seeds.nextInt());
        String runId = "msgbench-" + Long.toHexString(System.currentTimeMillis()) + "-"
                + Integer.toHexString(runKey & 0xffff);

        Accounting accounting = new Accounting(config.producers());
        Recorders recorders = new Recorders();
        Receiver receiver = new Receiver(clock, runKey, accounting, recorders);
        FirstFailure ackErrors = new FirstFailure();
        String startedAt = Instant.now().toString();
        LoadGeneratorMonitor generatorMonitor = new LoadGeneratorMonitor(config.cpus());

        system.prepare(new RunPlan(runId, config.messageSizeBytes(), config.producers(), config.consumers()));
        SystemInfo info = system.info();
        List<Subscriber> subscribers = new ArrayList<>();
        List<Publisher> publishers = new ArrayList<>();
        Throwable failure = null;
        ProgressMonitor monitor = null;
        IntervalLog log = null;
        RunWindow window = null;
        HiccupMeter hiccups = null;
        boolean drained = true;
        boolean consumeLater = config.pacing() instanceof Pacing.Unpaced
                && ((Pacing.Unpaced) config.pacing()).consumeAfterProduce();
        if (consumeLater && !system.retainsMessages()) {
            throw new UserError("--consume-after-produce: " + config.systemName()
                    + " keeps nothing for consumers that subscribe later; use a system that stores messages");
        }
        try {
            if (!consumeLater) {
                subscribe(subscribers, receiver);
            }
            RandomPayloads payloads = new RandomPayloads(config.messageSizeBytes(), seeds.nextLong());
            for (int s = 0; s < config.producers(); s++) {
                publishers.add(system.publisher(s, receiver.acksFor(s, ackErrors)));
            }

            long start = clock.nanoTime() + START_LEAD_NANOS;
            window = window(start);
            long giveUp = window.endNanos() + Math.max(10_000_000_000L, (window.endNanos() - start) / 10);
            long startEpochMillis = System.currentTimeMillis() + START_LEAD_NANOS / 1_000_000;
            receiver.start(window);
            log = new IntervalLog(dir, startEpochMillis, (window.measureStartNanos() - start) / 1e9, window.measuredSeconds());
            monitor = new ProgressMonitor(monitorClock, recorders, accounting, window, startEpochMillis, log, live,
                    info.acknowledges(), config.pacing() instanceof Pacing.Unpaced, plainProgress);
            if (plainProgress != null) {
                plainProgress.start(config, info, window);
            }

            List<Thread> threads = new ArrayList<>();
            int maxOutstanding = config.pacing() instanceof Pacing.Unpaced && info.acknowledges()
                    ? ((Pacing.Unpaced) config.pacing()).maxOutstanding() : 0;
            for (int s = 0; s < config.producers(); s++) {
                ProducerStream stream = new ProducerStream(runKey, s, plan(s, window), publishers.get(s), payloads,
                        seeds.nextLong(), clock, accounting, recorders, window, giveUp, maxOutstanding);
                producers.add(stream);
                threads.add(new Thread(stream, "msgbench-producer-" + s));
            }
            if (interrupted) {
                producers.forEach(ProducerStream::requestStop);
            }
            hiccups = HiccupMeter.start(recorders, window, clock, hiccupPause);
            Thread monitorThread = new Thread(monitor, "msgbench-monitor");
            monitorThread.setDaemon(true);
            monitorThread.start();
            threads.forEach(Thread::start);
            failure = awaitProducers(threads, receiver);
            if (failure == null && !interrupted) {
                for (Publisher publisher : publishers) {
                    publisher.flush();
                }
                flushedNanos = clock.nanoTime();
                if (consumeLater) {
                    drained = drain(accounting, info.acknowledges(), 0, receiver);
                    consumeStartNanos = clock.nanoTime();
                    subscribe(subscribers, receiver);
                }
                drained &= drain(accounting, info.acknowledges(), config.consumers(), receiver);
            }
            hiccups.stop();
            monitor.finish(monitorThread);
        } catch (InterruptedException e) {
            interrupted = true;
            Thread.currentThread().interrupt();
        } catch (UserError e) {
            if (window == null) {
                closeAll(publishers, subscribers, e);
                throw e;
            }
            failure = e;
        } catch (Exception | Error e) {
            failure = e;
        } finally {
            if (hiccups != null) {
                hiccups.stop();
            }
            if (log != null) {
                log.close();
            }
        }
        closeAll(publishers, subscribers, failure);
        if (window == null) {
            if (failure == null) {
                throw new InterruptedException("interrupted before the first message was sent");
            }
            throw failure instanceof Exception ? (Exception) failure : new IllegalStateException(failure);
        }

        Map<String, Object> generatorUsage = generatorMonitor.usage();
        generatorUsage.put("hiccupMs", Percentiles.inMillis(monitor.measured(HistogramKind.HICCUP)));
        generatorUsage.put("spinWindowMicros", clock.spinWindowNanos() / 1e3);
        RunResult result = buildResult(info, accounting, monitor, window, ackErrors, receiver, startedAt, failure, drained,
                generatorUsage);
        ResultFiles.writeResult(dir, result);
        writeHistograms(dir, monitor);
        SummaryTable.print(result, dir.toString(), out, ansi);
        if (failure != null) {
            throw new RunFailedException(oneLine(failure), result, dir, failure);
        }
        return result;
    }

    private void subscribe(List<Subscriber> subscribers, Receiver receiver) throws Exception {
        for (int i = 0; i < config.consumers(); i++) {
            subscribers.add(system.subscribe(i, receiver));
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.awaitReady(config.readyTimeout());
        }
    }

    private RunWindow window(long start) {
        if (config.pacing() instanceof Pacing.FixedRate) {
            Pacing.FixedRate fixed = (Pacing.FixedRate) config.pacing();
            long measureStart = start + fixed.warmup().toNanos();
            return new RunWindow(start, measureStart, measureStart + fixed.duration().toNanos());
        }
        Pacing.Unpaced unpaced = (Pacing.Unpaced) config.pacing();
        return new RunWindow(start, start, start + unpaced.timeLimit().toNanos());
    }

    private StreamPlan plan(int stream, RunWindow window) {
        if (config.pacing() instanceof Pacing.FixedRate) {
            Pacing.FixedRate fixed = (Pacing.FixedRate) config.pacing();
            return StreamPlan.fixed(fixed.arrival().schedule(window.startNanos(), fixed.rateMsgsPerSec(), stream,
                    config.producers(), config.seed()), window.endNanos());
        }
        long total = ((Pacing.Unpaced) config.pacing()).messages();
        // the first streams take one more when the count does not divide evenly
        long share = total / config.producers() + (stream < total % config.producers() ? 1 : 0);
        return StreamPlan.unpaced(share, window.startNanos(), window.endNanos());
    }

    private Throwable awaitProducers(List<Thread> threads, Receiver receiver) throws InterruptedException {
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                thread.join(100);
                Throwable failed = firstFailure(receiver);
                if (failed != null) {
                    producers.forEach(ProducerStream::requestStop);
                    for (Thread t : threads) {
                        t.join();
                    }
                    return failed;
                }
            }
        }
        return firstFailure(receiver);
    }

    private Throwable firstFailure(Receiver receiver) {
        for (ProducerStream producer : producers) {
            if (producer.failure() != null) {
                return producer.failure();
            }
        }
        return receiver.subscriberErrors().first();
    }

    /** Waits for every sent message to arrive (and be acknowledged); false on timeout. */
    private boolean drain(Accounting accounting, boolean acknowledges, int consumers, Receiver receiver)
            throws InterruptedException {
        long deadline = clock.nanoTime() + config.drainTimeout().toNanos();
        while (!interrupted && receiver.subscriberErrors().first() == null) {
            StreamSnapshot total = accounting.total();
            boolean allReceived = consumers == 0 || total.received() >= total.sent();
            boolean allAcked = !acknowledges || total.acked() + total.sendErrors() >= total.sent();
            if (allReceived && allAcked) {
                return true;
            }
            if (clock.nanoTime() >= deadline) {
                return false;
            }
            // on the run's clock, as the deadline is
            clock.sleepUntil(clock.nanoTime() + DRAIN_POLL_NANOS);
        }
        return true;
    }

    private static void closeAll(List<Publisher> publishers, List<Subscriber> subscribers, Throwable primary) throws Exception {
        Exception first = null;
        List<AutoCloseable> all = new ArrayList<>(publishers);
        all.addAll(subscribers);
        for (AutoCloseable closeable : all) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private RunResult buildResult(SystemInfo info, Accounting accounting, ProgressMonitor monitor, RunWindow window,
                                  FirstFailure ackErrors, Receiver receiver, String startedAt, Throwable failure,
                                  boolean drained, Map<String, Object> generatorUsage) {
        StreamSnapshot total = accounting.total();
        long measuredSent = 0;
        long unsent = 0;
        long lastSend = window.measureStartNanos();
        long maxBehind = 0;
        for (ProducerStream p : producers) {
            measuredSent += p.measuredSent();
            unsent += p.unsent();
            lastSend = Math.max(lastSend, p.lastMeasuredSendNanos());
            maxBehind = Math.max(maxBehind, p.maxBehindNanos());
        }
        Histogram latency = monitor.measured(HistogramKind.LATENCY);
        boolean stoppedEarly = interrupted || failure != null;
        List<String> warnings = new ArrayList<>();
        double targetRate;
        double achievedRate;
        double receivedRate;
        boolean missed;
        Throughput throughput = null;
        Workload workload;
        if (config.pacing() instanceof Pacing.FixedRate) {
            Pacing.FixedRate fixed = (Pacing.FixedRate) config.pacing();
            double sendSeconds = (Math.max(window.endNanos(), lastSend) - window.measureStartNanos()) / 1e9;
            targetRate = fixed.rateMsgsPerSec();
            achievedRate = measuredSent / sendSeconds;
            double scheduledRate = (measuredSent + unsent) / window.measuredSeconds();
            double receiveSeconds = (Math.max(window.endNanos(), receiver.lastReceiveNanos()) - window.measureStartNanos()) / 1e9;
            receivedRate = latency.getTotalCount() / receiveSeconds;
            missed = !stoppedEarly && achievedRate < (1 - RATE_TOLERANCE) * scheduledRate;
            if (missed) {
                warnings.add(String.format(Locale.US, "target rate missed: achieved %.1f msg/s of %.1f (%.1f%%)",
                        achievedRate, targetRate, 100 * achievedRate / targetRate));
            }
            workload = new Workload(Workload.FIXED_RATE, targetRate, 0, 0, config.messageSizeBytes(),
                    fixed.warmup().toNanos() / 1e9, fixed.duration().toNanos() / 1e9, fixed.arrival().label(),
                    config.producers(), config.consumers(), config.seed(), config.drainTimeout().toNanos() / 1e9);
        } else {
            Pacing.Unpaced unpaced = (Pacing.Unpaced) config.pacing();
            // without acknowledgements the publisher is done when its flush returns (the server has
            // it all, as the native tools count it), not when the last message left for a buffer
            long publishEnd = info.acknowledges() ? Math.max(lastSend, receiver.lastAckNanos())
                    : Math.max(lastSend, flushedNanos);
            double publishSeconds = Math.max(1e-9, (publishEnd - window.startNanos()) / 1e9);
            long consumeStart = consumeStartNanos == Long.MIN_VALUE ? window.startNanos() : consumeStartNanos;
            double consumeSeconds = Math.max(1e-9, (receiver.lastReceiveNanos() - consumeStart) / 1e9);
            double mib = config.messageSizeBytes() / 1048576.0;
            targetRate = 0;
            achievedRate = total.sent() / publishSeconds;
            receivedRate = config.consumers() == 0 ? 0 : total.received() / consumeSeconds;
            missed = false;
            throughput = new Throughput(total.sent(), total.received(), publishSeconds, achievedRate, achievedRate * mib,
                    config.consumers() == 0 ? 0 : consumeSeconds, receivedRate, receivedRate * mib);
            workload = new Workload(Workload.UNPACED, 0, unpaced.messages(), unpaced.maxOutstanding(),
                    config.messageSizeBytes(), 0, (window.endNanos() - window.startNanos()) / 1e9, "none",
                    config.producers(), config.consumers(), config.seed(), config.drainTimeout().toNanos() / 1e9);
        }
        if (unsent > 0) {
            warnings.add(String.format(Locale.US, "%,d scheduled messages were not sent (run %s)", unsent,
                    stoppedEarly ? "stopped early" : config.pacing() instanceof Pacing.Unpaced
                            ? "reached its time limit" : "fell too far behind schedule"));
        }
        if (!drained) {
            warnings.add("drain timed out after " + config.drainTimeout().toSeconds() + " s: messages still missing are counted as lost");
        }
        String lossHint = system.lossHint();
        if (config.consumers() > 0 && total.lost() > 0 && lossHint != null) {
            warnings.add(String.format(Locale.US, "%,d messages lost; %s", total.lost(), lossHint));
        }
        if (total.sendErrors() > 0) {
            warnings.add(String.format(Locale.US, "%,d sends failed; first: %s", total.sendErrors(), oneLine(ackErrors.first())));
        }
        if (receiver.subscriberErrors().count() > 0) {
            warnings.add("subscriber failed: " + oneLine(receiver.subscriberErrors().first()));
        }
        if (total.late() > 0) {
            warnings.add(String.format(Locale.US, "%,d messages arrived too late to be checked for duplication", total.late()));
        }
        if (accounting.foreign() > 0) {
            warnings.add(String.format(Locale.US, "%,d messages received that this run did not send", accounting.foreign()));
        }
        String generatorWarning = LoadGeneratorMonitor.warning(generatorUsage);
        if (generatorWarning != null) {
            warnings.add(generatorWarning);
        }

        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("tool", ToolVersion.version());
        versions.put("client", info.clientVersion());
        versions.put("broker", info.brokerVersion());
        Map<String, String> files = new LinkedHashMap<>();
        files.put("intervalLog", IntervalLog.FILE_NAME);
        for (HistogramKind kind : monitor.kinds()) {
            if (monitor.measured(kind).getTotalCount() > 0) {
                files.put(kind.tag(), kind.tag() + ".hgrm");
            }
        }
        String status = failure != null ? RunResult.FAILED : interrupted ? RunResult.INTERRUPTED : RunResult.COMPLETE;
        return new RunResult(RunResult.SCHEMA_VERSION, ToolVersion.NAME, ToolVersion.version(), config.command(),
                status, failure == null ? null : Redaction.redactUrl(oneLine(failure)), startedAt, Instant.now().toString(),
                config.systemName(), workload, Redaction.redact(info.durability()), Redaction.redact(info.settings()),
                versions, Redaction.redact(config.broker()),
                Environment.describe(), total.sent(), total.acked(), total.sendErrors(), total.received(),
                config.consumers() == 0 ? 0 : total.lost(), total.duplicated(), total.reordered(), total.late(), unsent, accounting.foreign(),
                measuredSent, targetRate, achievedRate, receivedRate, missed, maxBehind / 1e6,
                Percentiles.inMillis(latency),
                Percentiles.inMillis(monitor.measured(HistogramKind.SERVICE)),
                Percentiles.inMillis(monitor.measured(HistogramKind.SEND_DELAY)),
                Percentiles.inMillis(monitor.measured(HistogramKind.ACK)),
                throughput, generatorUsage, warnings, files);
    }

    private static void writeHistograms(Path dir, ProgressMonitor monitor) {
        for (HistogramKind kind : monitor.kinds()) {
            Histogram histogram = monitor.measured(kind);
            if (histogram.getTotalCount() > 0) {
                ResultFiles.writeHgrm(dir.resolve(kind.tag() + ".hgrm"), histogram);
            }
        }
    }

    static String oneLine(Throwable t) {
        if (t == null) {
            return "";
        }
        String message = t.getMessage() == null ? t.getClass().getName() : t.getClass().getSimpleName() + ": " + t.getMessage();
        if (t instanceof UserError) {
            message = t.getMessage();
        }
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    private static int nonZero(int key) {
        return key == 0 ? 0x5eed : key;
    }
}
