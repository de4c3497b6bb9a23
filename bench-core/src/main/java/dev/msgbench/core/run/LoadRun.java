package dev.msgbench.core.run;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongToDoubleFunction;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.cpu.CpuPlacement;
import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.driver.BrokerBytes;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.DeliveryProbe;
import dev.msgbench.core.fault.FaultInjector;
import dev.msgbench.core.payload.Payloads;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.FileNotWritten;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.IntervalSpans;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.time.RateSchedule;
import dev.msgbench.core.units.Durations;

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
    private static final long INTERVAL_SLACK_NANOS = 100_000_000L;
    private static final long DRAIN_POLL_NANOS = 5_000_000L;
    /** How often a wait for --start-at looks whether the run was stopped meanwhile. */
    private static final long START_WAIT_SLICE_NANOS = 100_000_000L;
    /** Woken this much before the lead, so that a worker on time starts exactly at --start-at. */
    private static final long START_WAKE_MARGIN_NANOS = 10_000_000L;

    private final RunSpec config;
    private final RunContext context;
    private final MessagingSystem system;
    private final NanoClock clock;
    private final NanoClock monitorClock;
    private final HiccupMeter.Pause hiccupPause;
    /** Makes the clock of each thread that waits on the run's time: the fault injector, the backlog gate. */
    private final Supplier<NanoClock> waiterClocks;
    private final PrintStream out;
    private final PrintStream live;
    private final boolean ansi;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final List<ProducerStream> producers = new ArrayList<>();
    private volatile boolean interrupted;
    private volatile Thread runner;
    private volatile FaultInjector faults;
    /** Set when the run no longer wants faults: an automatic warm-up decided late must not start them. */
    private boolean faultsStopped;
    private String runId;

    /**
     * @param spec    what to run, whole
     * @param context what surrounds it: progress, CPU watch, what faults act on, warm-ups before it
     * @param out     where the summary goes
     * @param live    where the live line goes each second, or null
     * @param ansi    whether {@code out} is a terminal (bold warnings)
     */
    public LoadRun(RunSpec spec, RunContext context, MessagingSystem system, NanoClock clock, PrintStream out,
                   PrintStream live, boolean ansi) {
        this(spec, context, system, clock, clock, HiccupMeter.PARK, () -> clock, out, live, ansi);
    }

    /** Nothing around the run ({@link RunContext#NONE}). */
    public LoadRun(RunSpec spec, MessagingSystem system, NanoClock clock, PrintStream out, PrintStream live, boolean ansi) {
        this(spec, RunContext.NONE, system, clock, out, live, ansi);
    }

    /**
     * The test seam for a fake clock, on which a sleep moves the time: the progress monitor ticks
     * on {@code monitorClock}, which must wait for the time the producers make rather than make it
     * (else its ticks would run ahead of the schedule), the hiccup meter pauses with
     * {@code hiccupPause}, and the fault injector and the backlog gate each wait on a clock of their
     * own from {@code waiterClocks}, made when their thread starts (a fake clock's watcher).
     */
    LoadRun(RunSpec spec, RunContext context, MessagingSystem system, NanoClock clock, NanoClock monitorClock,
            HiccupMeter.Pause hiccupPause, Supplier<NanoClock> waiterClocks, PrintStream out, PrintStream live,
            boolean ansi) {
        this.config = spec;
        this.context = context;
        this.system = system;
        this.clock = clock;
        this.monitorClock = monitorClock;
        this.hiccupPause = hiccupPause;
        this.waiterClocks = waiterClocks;
        this.out = out;
        this.live = live;
        this.ansi = ansi;
    }

    /**
     * Runs, writes the results and prints the summary.
     *
     * @throws UserError         when the system rejects the setup (before anything was measured)
     * @throws RunFailedException when the run failed after starting; partial results are written
     * @throws ResultsNotWritten when the results folder could not take every file (the summary is printed)
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
        config.destinations().check(config.producers(), config.worker());
        Measurement measurement = new Measurement(config, clock, config.worker(), config.destinations());
        String startedAt = Instant.now().toString();
        if (config.startAt() != null) {
            // the one conversion from the wall clock: the wait and the schedule follow the monotonic clock
            measurement.startDeadlineNanos = config.startAt().deadlineNanos(clock.nanoTime(), Instant.now());
        }
        runId = runId(measurement.runKey) + (config.worker() == null ? "" : config.worker().runIdSuffix());
        LoadGeneratorMonitor generatorMonitor = new LoadGeneratorMonitor(config.cpus(), clock::spunNanos);

        if (!config.keys().isNone()) {
            String refusal = system.useKeys(config.keys());
            if (refusal != null) {
                throw new UserError(keysRefused(config.keys(), Phrase.text(config.systemName()), refusal));
            }
        }
        refuseSharingWithoutSchedule();
        ClientMemory.refuseBeyondHeap(ClientMemory.of(config, config.destinations()), Runtime.getRuntime().maxMemory());
        system.prepare(config.destinations().plan(runId, config.messageSizeBytes(), config.producers(), config.consumers(),
                config.sharing()));
        SystemInfo info = system.info();
        refuseConsumingLaterWhereNothingIsKept();
        refuseBacklogWhereNothingIsKept();
        RunClients clients = new RunClients();
        Throwable failure = null;
        try {
            measure(measurement, clients, info);
            failure = measurement.failure;
        } catch (InterruptedException e) {
            interrupted = true;
            Thread.currentThread().interrupt();
        } catch (UserError e) {
            if (measurement.window == null) {
                clients.closeAll(e);
                throw e;
            }
            failure = e;
        } catch (Exception | Error e) {
            failure = e;
        } finally {
            // before the log closes: the last faults' lines go there; and no broker stays paused
            stopFaults();
            measurement.stopRecording();
            if (measurement.warmup != null) {
                measurement.warmup.closeUndecided();
            }
        }
        Exception closing = clients.closeAll(failure);
        if (failure == null) {
            // a client that cannot close may have lost what it still held: the run failed, and says so in its results
            failure = closing;
        }
        if (measurement.window == null) {
            if (failure == null) {
                throw new InterruptedException("interrupted before the first message was sent");
            }
            throw failure instanceof Exception ? (Exception) failure : new IllegalStateException(failure);
        }
        // every client closed: what the broker counted now holds every byte it acknowledged
        BrokerBytes brokerBytes = null;
        String brokerBytesError = null;
        try {
            brokerBytes = system.brokerBytes();
        } catch (InterruptedException e) {
            interrupted = true;
            Thread.currentThread().interrupt();
            brokerBytesError = "interrupted";
        } catch (Exception e) {
            brokerBytesError = oneLine(e, context.settingNames());
        }
        RunObservation observed = observation(info, startedAt, measurement, failure, generatorMonitor, brokerBytes,
                brokerBytesError);
        return finish(dir, ResultBuilder.build(config, observed, context.settingNames()), measurement, failure);
    }

    /** Subscribes, sends on schedule, flushes and drains; whatever fails on the way is left in {@code m}. */
    private void measure(Measurement m, RunClients clients, SystemInfo info) throws Exception {
        if (!consumesAfterProducing() && config.backlog() == null) {
            subscribe(clients.subscribers, m.receiver);
        }
        Payloads payloads = Payloads.of(config.payload(), config.sizes(), m.seeds.nextLong());
        for (int s = 0; s < config.producers(); s++) {
            clients.publishers.add(system.publisher(s, m.receiver.acksFor(s, m.ackErrors)));
        }

        long start = config.startAt() == null ? clock.nanoTime() + START_LEAD_NANOS : awaitStartAt(m);
        RunWindow window = new RunSchedule(config, config.worker()).window(start);
        // an open window's end is the latest it can be: a stream behind schedule may go on a little longer
        long giveUp = window.endNanos() + Math.max(10_000_000_000L, (window.endNanos() - start) / 10);
        long startEpochMillis = System.currentTimeMillis() + (config.startAt() == null ? START_LEAD_NANOS : start - clock.nanoTime())
                / 1_000_000;
        m.receiver.start(window);
        if (config.pacing() instanceof Pacing.FixedRate fixed && fixed.autoWarmup()) {
            m.log = IntervalLog.withAutoWarmup(config.outputDir(), startEpochMillis, fixed.warmup().toSeconds(),
                    window.measuredSeconds());
            // fault times count from the measure start: the faults wait for it
            m.warmup = new AutoWarmup(window, fixed.warmup().toNanos(), fixed.rateMsgsPerSec(), m.log,
                    () -> startFaults(m));
        } else {
            m.log = new IntervalLog(config.outputDir(), startEpochMillis, window.warmupSeconds(), window.measuredSeconds());
        }
        // an automatic warm-up may take up to its bound: the one-second intervals cover it whatever it takes
        double warmupSeconds = m.warmup != null && config.pacing() instanceof Pacing.FixedRate fixed
                ? fixed.warmup().toSeconds() : window.warmupSeconds();
        double runSeconds = warmupSeconds + window.measuredSeconds();
        m.log.coarsen(IntervalSpans.DEFAULT, warmupSeconds, runSeconds);
        if (IntervalSpans.DEFAULT.coarsens(runSeconds) && out != null) {
            out.println(IntervalSpans.DEFAULT.describe(runSeconds));
        }
        m.monitor = new ProgressMonitor(monitorClock, m.recorders, m.accounting, window, startEpochMillis, m.log, live,
                info.acknowledges(), config.pacing() instanceof Pacing.Unpaced, context.plainProgress(), m.warmup);
        m.monitor.tell(context.liveFigures(), targetRateAt(window));
        m.monitor.watchCpu(context.cpuWatch());
        if (context.plainProgress() != null) {
            context.plainProgress().start(config, info, window);
        }
        context.liveFigures().started(config, info);
        // from here on there are results to write, whatever happens
        m.window = window;

        List<ProducerThread> threads = producerThreads(m, clients.publishers, payloads, giveUp, info.acknowledges());
        if (m.warmup == null) {
            startFaults(m);
        }
        m.hiccups = HiccupMeter.start(m.recorders, window, clock, hiccupPause);
        Thread monitorThread = new Thread(m.monitor, "msgbench-monitor");
        monitorThread.setDaemon(true);
        monitorThread.start();
        Thread gateThread = null;
        if (config.backlog() != null) {
            NanoClock gateClock = waiterClocks.get();
            m.backlogGate = new BacklogGate(config.backlog(), config.backlog().messagesToSend(config.sizes()), m.accounting, window, m.log,
                    targetRateAt(window), gateClock, () -> {
                        FaultInjector injector = faults;
                        if (injector != null) {
                            // released while a node is down: the consumers connect once it serves again
                            injector.awaitNodesServing(gateClock);
                        }
                        subscribe(clients.subscribers, m.receiver);
                    }, m.receiver);
            gateThread = new Thread(m.backlogGate, "msgbench-backlog");
            gateThread.setDaemon(true);
            gateThread.start();
        }
        try {
            threads.forEach(t -> t.thread().start());
            m.failure = awaitProducers(threads, m);
            m.monitor.sendingOver();
            if (gateThread != null) {
                m.backlogGate.sendingOver();
                m.backlogGate.awaitReleased();
            }
            if (m.failure == null && !interrupted) {
                m.failure = flushAndDrain(m, clients, info);
            }
        } finally {
            // the gate adds subscribers: it must be done before anyone closes them
            if (gateThread != null) {
                m.backlogGate.stop(gateThread);
            }
        }
        m.hiccups.stop();
        m.monitor.finish(monitorThread);
    }

    /**
     * Waits, connected and subscribed, until just before --start-at, and gives the start of the
     * schedule: the deadline itself, or as soon as the producers can start when this worker was
     * late; later than the tolerance, it refuses to run.
     */
    private long awaitStartAt(Measurement m) throws InterruptedException {
        long deadline = m.startDeadlineNanos;
        long wakeAt = deadline - START_LEAD_NANOS - START_WAKE_MARGIN_NANOS;
        for (long now = clock.nanoTime(); now < wakeAt && !interrupted; now = clock.nanoTime()) {
            clock.sleepUntil(Math.min(wakeAt, now + START_WAIT_SLICE_NANOS));
        }
        if (interrupted) {
            throw new InterruptedException(Phrase.of("interrupted while waiting for %s %s", Setting.START_AT,
                    config.startAt().instant()).render(context.settingNames()));
        }
        long now = clock.nanoTime();
        long start = Math.max(deadline, now + START_LEAD_NANOS);
        long latenessNanos = start - deadline;
        if (latenessNanos > config.startAt().tolerance().toNanos()) {
            throw new UserError(Phrase.of("%s %s was missed: this worker was ready to start %.3f s after it (at most "
                    + "%.3f s allowed); give a later %s", Setting.START_AT, config.startAt().instant(), latenessNanos / 1e9,
                    config.startAt().tolerance().toNanos() / 1e9, Setting.START_AT));
        }
        m.start = new LinkedHashMap<>();
        m.start.put("askedStart", config.startAt().instant().toString());
        m.start.put("actualStart", Instant.now().plusNanos(start - now).toString());
        m.start.put("latenessMs", latenessNanos / 1e6);
        m.start.put("clock", config.startAt().clockSync());
        return start;
    }

    private synchronized void startFaults(Measurement m) {
        if (faultsStopped) {
            return;
        }
        IntervalLog timeline = m.log;
        RunWindow sending = m.window;
        faults = FaultInjector.start(config.faults(), context.faultTarget(), config.faults().isEmpty()
                        ? clock : waiterClocks.get(), sending.measureStartNanos(),
                DeliveryProbe.of(m.receiver::lastReceiveNanos,
                        () -> config.consumers() > 0 && clock.nanoTime() <= sending.endNanos()),
                event -> {
                    timeline.comment(event.timelineComment());
                    context.liveFigures().fault(event);
                }, context.settingNames());
    }

    private synchronized void stopFaults() {
        faultsStopped = true;
        if (faults != null) {
            faults.stop();
        }
    }

    private List<ProducerThread> producerThreads(Measurement m, List<Publisher> publishers, Payloads payloads, long giveUp,
                                         boolean acknowledges) {
        int maxOutstanding = config.pacing() instanceof Pacing.Unpaced unpaced && acknowledges ? unpaced.maxOutstanding() : 0;
        int threadCount = config.producerThreads();
        // stream s on thread s mod threads, as RunPlan.producerConnectionOf puts it on that thread's connection
        List<List<ProducerStream>> perThread = new ArrayList<>();
        List<ProducerPayloads> threadPayloads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            perThread.add(new ArrayList<>());
            threadPayloads.add(threadCount == config.producers() ? null : new ProducerPayloads(payloads, m.seeds.nextLong()));
        }
        for (int s = 0; s < config.producers(); s++) {
            long seed = m.seeds.nextLong();
            ProducerPayloads shared = threadPayloads.get(s % threadCount);
            ProducerStream stream = new ProducerStream(m.runKey, s, new RunSchedule(config, config.worker()).plan(s, m.window),
                    publishers.get(s), shared == null ? new ProducerPayloads(payloads, seed) : shared, seed, clock,
                    m.accounting, m.recorders, m.window, giveUp, maxOutstanding, config.keys());
            producers.add(stream);
            perThread.get(s % threadCount).add(stream);
        }
        List<ProducerThread> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            List<ProducerStream> streams = perThread.get(t);
            threads.add(new ProducerThread(streams.size() == 1 ? new Thread(streams.get(0), "msgbench-producer-" + t)
                    : new Thread(new SharedProducerThread(streams, clock, m.recorders, giveUp), "msgbench-producer-" + t),
                    streams));
        }
        if (interrupted) {
            producers.forEach(ProducerStream::requestStop);
        }
        return threads;
    }

    /**
     * Flushes the publishers, subscribes now if consuming after producing, and waits for what is
     * missing; returns the first failure seen meanwhile, or null.
     */
    private Throwable flushAndDrain(Measurement m, RunClients clients, SystemInfo info) throws Exception {
        if (producers.stream().anyMatch(ProducerStream::abandoned)) {
            // a send was given up after waiting the drain timeout: the drain's time is up, a flush would wait as long
            m.drained = false;
            m.flushedNanos = clock.nanoTime();
            return firstFailure(m.receiver);
        }
        if (!flushWithin(clients.publishers, config.drainTimeout())) {
            // a client that still holds messages for a broker that does not answer (Kafka's flush waits up to its
            // delivery.timeout.ms, 2 min): the drain's time is up, what it held is never acknowledged
            m.drained = false;
            m.flushedNanos = clock.nanoTime();
            return firstFailure(m.receiver);
        }
        m.flushedNanos = clock.nanoTime();
        if (consumesAfterProducing()) {
            m.drained = drain(m.accounting, info.acknowledges(), 0, m.receiver);
            // the consumers start in a heap of their own size, not in the one grown for the producers
            m.heapBetweenPhases = HeapBetweenPhases.collect(clock);
            m.consumeStartNanos = clock.nanoTime();
            subscribe(clients.subscribers, m.receiver);
        }
        m.drained &= drain(m.accounting, info.acknowledges(), config.consumers(), m.receiver);
        // a subscriber that failed while the run drained ends the drain early, and the run
        return firstFailure(m.receiver);
    }

    /**
     * Whether the run ended with nothing meant to arrive after its last delivery: it drained, sent
     * its whole schedule, and sent nothing after its last delivery (a send to a node that never came
     * back fails and delivers nothing). If not, it ended in a time without deliveries.
     */
    private boolean endedDelivering(Measurement m) {
        if (config.consumers() == 0) {
            return m.drained;
        }
        long lastSend = Long.MIN_VALUE;
        for (ProducerStream stream : producers) {
            if (stream.unsent() > 0) {
                return false;
            }
            lastSend = Math.max(lastSend, stream.lastMeasuredSendNanos());
        }
        return m.drained && lastSend <= m.receiver.lastReceiveNanos();
    }

    private RunObservation observation(SystemInfo info, String startedAt, Measurement m, Throwable failure,
                                       LoadGeneratorMonitor generatorMonitor, BrokerBytes brokerBytes,
                                       String brokerBytesError) {
        CpuContention cpu = cpuContention(m.monitor.measuredCpu(), m.monitor.measuredCpuSeconds());
        Map<String, Object> generatorUsage = generatorMonitor.usage(cpu);
        generatorUsage.put("hiccupMs", Percentiles.inMillis(m.monitor.measured(HistogramKind.HICCUP)));
        generatorUsage.put("spinWindowMicros", clock.spinWindowNanos() / 1e3);
        if (context.spinWindowChoice() != null) {
            generatorUsage.put("spinWindowChoice", context.spinWindowChoice());
        }
        generatorUsage.put("intervalLog", m.log.describe());
        if (config.worker() != null) {
            generatorUsage.put("worker", config.worker().describe(runId));
        }
        if (m.start != null) {
            generatorUsage.put("start", m.start);
        }
        if (!context.warmups().isEmpty()) {
            generatorUsage.put("warmupRun", WarmupRuns.describe(context.warmups()));
        }
        if (m.heapBetweenPhases != null) {
            generatorUsage.put("collectedBetweenPhases", m.heapBetweenPhases.describe());
        }
        Map<HistogramKind, Histogram> measured = new EnumMap<>(HistogramKind.class);
        for (HistogramKind kind : HistogramKind.values()) {
            measured.put(kind, m.monitor.measured(kind));
        }
        measured.put(HistogramKind.COMMIT, m.receiver.commitTimes());
        long consumeStart = m.consumeStartNanos == Long.MIN_VALUE ? m.window.startNanos() : m.consumeStartNanos;
        Receiver receiver = m.receiver;
        RunObservation.Ends ends = new RunObservation.Ends(receiver.lastReceiveNanos(), receiver.lastAckNanos(),
                m.flushedNanos, consumeStart, receiver.receivedBytes(),
                m.consumeStartNanos == Long.MIN_VALUE ? Long.MIN_VALUE : receiver.firstReceiveNanos());
        return new RunObservation(info, system.lossHint(), system.deliveryPromise(), startedAt, m.window, m.accounting,
                sendTotals(m.window), ends, measured, m.ackErrors.first(), receiver.subscriberErrors().first(), receiver.subscriberErrors().count(),
                failure, interrupted, m.drained, generatorUsage,
                faults == null ? List.of() : faults.reports(receiver.deliveryGaps(), m.monitor.intervals(), endedDelivering(m)),
                // an interval ends when the monitor wakes, a little after the second it samples
                m.monitor.intervals().seconds(m.window.measureStartNanos(), m.window.endNanos() + INTERVAL_SLACK_NANOS),
                m.backlogGate == null ? null : m.backlogGate.figures(), cpu, brokerBytes, brokerBytesError,
                system.abortedDeliveryHint());
    }

    /** The measured window's CPU use, judged against where each side may run; null where it was not watched. */
    private CpuContention cpuContention(CpuUsage measured, List<CpuUsage> seconds) {
        CpuPlacement placement = context.cpuWatch().placement();
        if (measured == null || placement == null) {
            return null;
        }
        return CpuContention.judge(measured, seconds, placement, clock.spinWindowNanos(), context.settingNames());
    }

    /** The rate this process's schedule asks for at a time on the run's clock: its share of --rate; NaN unpaced. */
    /** The rate the schedule asks for at each moment: a rate schedule's during the measured part, its first before. */
    private LongToDoubleFunction targetRateAt(RunWindow window) {
        if (config.pacing() instanceof Pacing.FixedRate fixed) {
            RateSchedule schedule = fixed.schedule();
            if (schedule == null) {
                return now -> fixed.rateMsgsPerSec();
            }
            return now -> now < window.measureStartNanos() ? schedule.firstRateMsgsPerSec()
                    : schedule.rateAt(now - window.measureStartNanos());
        }
        return now -> Double.NaN;
    }

    private RunObservation.SendTotals sendTotals(RunWindow window) {
        long measuredSent = 0;
        long unsent = 0;
        long lastSend = window.measureStartNanos();
        long maxBehind = 0;
        long sentBytes = 0;
        Histogram sizes = null;
        // the streams of one thread share a record of sizes: each is added once
        Set<ProducerPayloads> added = Collections.newSetFromMap(new IdentityHashMap<>());
        for (ProducerStream p : producers) {
            sentBytes += p.sentBytes();
            if (p.measuredSizes() != null && added.add(p.payloads())) {
                if (sizes == null) {
                    sizes = new Histogram(config.messageSizeBytes(), 3);
                }
                sizes.add(p.measuredSizes());
            }
            measuredSent += p.measuredSent();
            unsent += p.unsent();
            lastSend = Math.max(lastSend, p.lastMeasuredSendNanos());
            maxBehind = Math.max(maxBehind, p.maxBehindNanos());
        }
        return new RunObservation.SendTotals(measuredSent, unsent, lastSend, maxBehind, sentBytes, sizes);
    }

    /**
     * Writes the results, prints the summary, and throws when the run failed or a file could not
     * be written: the summary is printed either way, so a full disk does not cost the figures.
     */
    private RunResult finish(Path dir, RunResult result, Measurement m, Throwable failure)
            throws RunFailedException, ResultsNotWritten {
        List<FileNotWritten> notWritten = new ArrayList<>(m.log.notWritten());
        try {
            ResultFiles.writeResult(dir, result);
        } catch (FileNotWritten e) {
            notWritten.add(e);
        }
        notWritten.addAll(writeHistograms(dir, m.monitor));
        notWritten.addAll(writeCommits(dir, m.receiver.commitTimes()));
        SummaryTable.print(result, dir.toString(), out, ansi);
        if (!notWritten.isEmpty()) {
            throw new ResultsNotWritten(result, dir, notWritten, failure);
        }
        if (failure != null) {
            throw new RunFailedException(oneLine(failure, context.settingNames()), result, dir, failure);
        }
        return result;
    }

    private boolean consumesAfterProducing() {
        return config.pacing() instanceof Pacing.Unpaced unpaced && unpaced.consumeAfterProduce();
    }

    private void refuseConsumingLaterWhereNothingIsKept() {
        if (consumesAfterProducing() && !system.retainsMessages()) {
            throw new UserError(consumingLaterRefused(config.systemName()));
        }
    }

    /**
     * Streams that share a thread take turns by their intended times: a run without a schedule has
     * none to take turns by, and its outstanding limit is one stream's.
     */
    private void refuseSharingWithoutSchedule() {
        if (config.sharing().sharesProducerThreads(config.producers()) && config.pacing() instanceof Pacing.Unpaced) {
            throw new UserError(Phrase.of("%s %d: producer streams share threads only on a schedule (e2e); give %s %d "
                    + "or omit it", Setting.PRODUCER_THREADS, config.producerThreads(), Setting.PRODUCER_THREADS,
                    config.producers()));
        }
    }

    private void refuseBacklogWhereNothingIsKept() {
        if (config.backlog() != null && !system.retainsMessages()) {
            throw new UserError(backlogRefused(config.systemName()));
        }
    }

    /** Why consuming after producing cannot work on a system that keeps nothing; checked before a broker starts too. */
    public static Phrase consumingLaterRefused(String systemName) {
        return Phrase.of("%s: %s keeps nothing for consumers that subscribe later; use a system that stores messages",
                Setting.CONSUME_AFTER_PRODUCE, systemName);
    }

    /** Why keys cannot run with {@code what} (a system, or the echo pattern), which said {@code why}. */
    public static Phrase keysRefused(RecordKeys keys, Phrase what, String why) {
        return Phrase.of("%s %s does not work with %s: %s; give %s none", Setting.KEYS, keys.spec(), what, why,
                Setting.KEYS);
    }

    /** Why a backlog cannot build on a system that keeps nothing; the command line says it before a broker starts. */
    public static Phrase backlogRefused(String systemName) {
        return Phrase.of("%s: %s keeps nothing for consumers that are held back, so no backlog can build; use a system "
                + "that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams)", Setting.BACKLOG, systemName);
    }

    private static String runId(int runKey) {
        return "msgbench-" + Long.toHexString(System.currentTimeMillis()) + "-" + Integer.toHexString(runKey & 0xffff);
    }

    private void subscribe(List<Subscriber> subscribers, Receiver receiver) throws Exception {
        RunPlan plan = config.destinations().plan(runId, config.messageSizeBytes(), config.producers(), config.consumers(),
                config.sharing());
        for (int i = 0; i < plan.consumers(); i++) {
            subscribers.add(system.subscribe(i, receiver.sinkFor(plan.topicOfConsumer(i), plan.subscriptionOfConsumer(i))));
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.awaitReady(config.readyTimeout());
        }
    }

    private Throwable awaitProducers(List<ProducerThread> threads, Measurement m) throws InterruptedException {
        for (ProducerThread producer : threads) {
            while (producer.thread().isAlive()) {
                producer.thread().join(100);
                Throwable failed = firstFailure(m.receiver);
                if (failed != null) {
                    producers.forEach(ProducerStream::requestStop);
                    for (ProducerThread t : threads) {
                        t.thread().join();
                    }
                    return failed;
                }
                for (ProducerThread t : threads) {
                    abandonIfBlocked(t, m);
                }
            }
        }
        return firstFailure(m.receiver);
    }

    /**
     * Gives up on a producer thread that started no send for the drain timeout once the schedule was
     * over: it is blocked in one (Kafka's send waits up to max.block.ms, 60 s, for the metadata of a
     * topic whose broker is gone; a stream behind schedule that still sends goes on until its give-up
     * time). Its streams stop, the thread is interrupted, and the send it wakes from counts as failed:
     * the drain's time is up, as it is for a flush that does not end.
     */
    private void abandonIfBlocked(ProducerThread producer, Measurement m) {
        if (!producer.thread().isAlive() || producer.streams().get(0).abandoned()) {
            return;
        }
        long lastSend = m.window.endNanos();
        for (ProducerStream stream : producer.streams()) {
            lastSend = Math.max(lastSend, stream.lastMeasuredSendNanos());
        }
        if (clock.nanoTime() - lastSend < config.drainTimeout().toNanos()) {
            return;
        }
        producer.streams().forEach(ProducerStream::abandon);
        m.ackErrors.add(new TimeoutException("a send still blocked once the drain timeout (" + Durations.format(
                config.drainTimeout()) + ") had passed after the schedule ended was given up"));
        producer.thread().interrupt();
    }

    private Throwable firstFailure(Receiver receiver) {
        for (ProducerStream producer : producers) {
            if (producer.failure() != null) {
                return producer.failure();
            }
        }
        if (faults != null && faults.failure() != null) {
            return faults.failure();
        }
        return receiver.subscriberErrors().first();
    }

    /**
     * Flushes every publisher on a thread of its own, waiting at most {@code timeout} for it;
     * rethrows what a flush threw. A flush left waiting ends when its publisher is closed.
     *
     * @return whether every flush ended in time
     */
    private static boolean flushWithin(List<Publisher> publishers, Duration timeout) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread flusher = new Thread(() -> {
            try {
                for (Publisher publisher : publishers) {
                    publisher.flush();
                }
            } catch (Exception e) {
                failure.set(e);
            }
        }, "msgbench-flush");
        flusher.setDaemon(true);
        flusher.start();
        // the wait is for an event, the end of the flush: its bound needs no fake clock, a test's flush ends at once
        flusher.join(Math.max(1, timeout.toMillis()));
        if (failure.get() != null) {
            throw failure.get();
        }
        return !flusher.isAlive();
    }

    /** Waits for every sent message to arrive (and be acknowledged); false on timeout. */
    private boolean drain(Accounting accounting, boolean acknowledges, int consumers, Receiver receiver)
            throws InterruptedException {
        long deadline = clock.nanoTime() + config.drainTimeout().toNanos();
        while (!interrupted && receiver.subscriberErrors().first() == null
                && (faults == null || faults.failure() == null)) {
            StreamSnapshot total = accounting.total();
            // a message aborted on purpose is settled, and expected by no consumer (one may still receive it)
            long aborted = accounting.aborted();
            boolean allAcked = !acknowledges || total.acked() + total.sendErrors() + aborted >= total.sent();
            boolean allReceived = consumers == 0 || (aborted == 0 ? total.received() >= total.expected()
                    : total.received() - accounting.abortedDelivered() + aborted * accounting.subscriptionsPerTopic()
                    >= total.expected())
                    || acknowledges && allAcked && everyAcknowledgedReceived(accounting, total);
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

    /**
     * Whether every message the system acknowledged has arrived: then only failed sends are still
     * missing, and waiting for what the system refused (a failover's "no responders") would only
     * run the drain into its timeout. The exact check scans the ledger, so it runs only once the
     * counts allow it.
     */
    private static boolean everyAcknowledgedReceived(Accounting accounting, StreamSnapshot total) {
        long aborted = accounting.aborted();
        long failedDeliveries = (total.sendErrors() + aborted) * accounting.subscriptionsPerTopic();
        long received = aborted == 0 ? total.received() : total.received() - accounting.abortedDelivered();
        return received + failedDeliveries >= total.expected() && accounting.losses().acknowledged() == 0;
    }

    /** Writes each kind's .hgrm; gives back those the disk refused, and goes on with the others. */
    private static List<FileNotWritten> writeHistograms(Path dir, ProgressMonitor monitor) {
        List<FileNotWritten> notWritten = new ArrayList<>();
        for (HistogramKind kind : monitor.kinds()) {
            Histogram histogram = monitor.measured(kind);
            if (histogram.getTotalCount() > 0) {
                try {
                    ResultFiles.writeHgrm(dir.resolve(kind.tag() + ".hgrm"), histogram);
                } catch (FileNotWritten e) {
                    notWritten.add(e);
                }
            }
        }
        return notWritten;
    }

    /** A transactional run's commit times: as percentiles, and whole for merge to add; none without commits. */
    private static List<FileNotWritten> writeCommits(Path dir, Histogram commits) {
        List<FileNotWritten> notWritten = new ArrayList<>();
        if (commits.getTotalCount() == 0) {
            return notWritten;
        }
        try {
            ResultFiles.writeHgrm(dir.resolve(HistogramKind.COMMIT.tag() + ".hgrm"), commits);
        } catch (FileNotWritten e) {
            notWritten.add(e);
        }
        try {
            ResultFiles.writeHistogramLog(dir.resolve(ResultFiles.COMMIT_LOG), HistogramKind.COMMIT, commits);
        } catch (FileNotWritten e) {
            notWritten.add(e);
        }
        return notWritten;
    }

    /** A failure on one line, a user error's settings named by {@code names}; empty for none. */
    static String oneLine(Throwable t, SettingNames names) {
        if (t == null) {
            return "";
        }
        String message = t.getMessage() == null ? t.getClass().getName() : t.getClass().getSimpleName() + ": " + t.getMessage();
        if (t instanceof UserError error) {
            message = error.message(names);
        }
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    /** A producer thread and the streams it sends. */
    private record ProducerThread(Thread thread, List<ProducerStream> streams) {
    }
}
