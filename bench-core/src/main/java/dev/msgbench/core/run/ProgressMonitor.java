package dev.msgbench.core.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongToDoubleFunction;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.analysis.RunIntervals;
import dev.msgbench.core.cpu.CpuSnapshot;
import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.cpu.CpuWatch;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.time.NanoClock;

/**
 * Once a second: collects every thread's interval histograms, writes them and the interval's
 * counts to the interval log, adds the measured ones to the run's totals, and prints the live line.
 */
final class ProgressMonitor implements Runnable {

    private static final long SECOND = 1_000_000_000L;

    private final NanoClock clock;
    private final Recorders recorders;
    private final Accounting accounting;
    private final RunWindow window;
    private final long startEpochMillis;
    private final IntervalLog log;
    private final PrintStream live;
    private final Set<HistogramKind> kinds;
    private final boolean unpaced;
    private final PlainProgress plain;
    private final AutoWarmup warmup;

    private final Histogram[] measuredTotals = new Histogram[HistogramKind.values().length];
    private final Histogram latencySoFar = Recorders.newHistogram();
    private final RunIntervals intervals = new RunIntervals();
    private long previousNanos;
    private StreamSnapshot previousCounts = StreamSnapshot.zero();
    private volatile boolean stopped;
    /** Set before the monitor's thread starts. */
    private LiveFigures liveFigures = LiveFigures.NONE;
    private LongToDoubleFunction targetRateAt = now -> Double.NaN;
    /** Every producer has ended: a run as fast as accepted drains before its window's end. */
    private volatile boolean sendingOver;
    /** Whether sending was over when the current interval began. */
    private boolean sendingOverBefore;
    private CpuWatch cpuWatch = CpuWatch.NONE;
    /** The CPUs at the start of the current interval; null where they are not watched. */
    private CpuSnapshot previousCpu;
    /** The CPUs at the start of the first measured interval and at the end of the last one so far. */
    private CpuSnapshot measuredCpuFrom;
    private CpuSnapshot measuredCpuTo;
    private CpuSnapshot firstCpu;
    private final List<CpuUsage> measuredCpuSeconds = new ArrayList<>();

    ProgressMonitor(NanoClock clock, Recorders recorders, Accounting accounting, RunWindow window,
                    long startEpochMillis, IntervalLog log, PrintStream live, boolean acknowledges, boolean unpaced) {
        this(clock, recorders, accounting, window, startEpochMillis, log, live, acknowledges, unpaced, null, null);
    }

    /**
     * @param live   where the live line goes, or null for none
     * @param plain  where the plain lines go when no terminal shows the live line, or null
     * @param warmup ends the warm-up of an open window ({@code --warmup auto}), or null
     */
    ProgressMonitor(NanoClock clock, Recorders recorders, Accounting accounting, RunWindow window,
                    long startEpochMillis, IntervalLog log, PrintStream live, boolean acknowledges, boolean unpaced,
                    PlainProgress plain, AutoWarmup warmup) {
        this.warmup = warmup;
        this.unpaced = unpaced;
        this.plain = plain;
        this.clock = clock;
        this.recorders = recorders;
        this.accounting = accounting;
        this.window = window;
        this.startEpochMillis = startEpochMillis;
        this.log = log;
        this.live = live;
        // a commit is timed once per transaction, not per message: the receiver keeps it, not the interval log
        this.kinds = acknowledges ? EnumSet.complementOf(EnumSet.of(HistogramKind.COMMIT))
                : EnumSet.complementOf(EnumSet.of(HistogramKind.ACK, HistogramKind.COMMIT));
        for (HistogramKind kind : HistogramKind.values()) {
            measuredTotals[kind.ordinal()] = Recorders.newHistogram();
        }
        this.previousNanos = window.startNanos();
    }

    /**
     * Tells {@code figures} each interval; before the monitor's thread starts.
     *
     * @param targetRateAt the rate the schedule asks for at a time on the run's clock (NaN when unpaced)
     */
    void tell(LiveFigures figures, LongToDoubleFunction targetRateAt) {
        this.liveFigures = figures;
        this.targetRateAt = targetRateAt;
    }

    /** Reads the CPUs' use each interval from {@code watch}; before the monitor's thread starts. */
    void watchCpu(CpuWatch watch) {
        this.cpuWatch = watch;
        this.previousCpu = watch.snapshot();
        this.firstCpu = previousCpu;
    }

    /**
     * The CPUs' use over the measured intervals (over the whole run when none was measured);
     * null where they were not watched. After {@link #finish}.
     */
    synchronized CpuUsage measuredCpu() {
        if (measuredCpuFrom != null) {
            return CpuUsage.between(measuredCpuFrom, measuredCpuTo);
        }
        return firstCpu == null || previousCpu == null ? null : CpuUsage.between(firstCpu, previousCpu);
    }

    /** Each measured interval's CPU use, in order; empty where the CPUs were not watched. After {@link #finish}. */
    synchronized List<CpuUsage> measuredCpuSeconds() {
        return List.copyOf(measuredCpuSeconds);
    }

    /** Every producer has ended; what follows is the drain. */
    void sendingOver() {
        sendingOver = true;
    }

    @Override
    public void run() {
        long tick = 1;
        try {
            while (!stopped) {
                clock.sleepUntil(window.startNanos() + tick * SECOND);
                long now = sample(false);
                if (warmup != null) {
                    warmup.afterSecond(now, intervals);
                }
                tick++;
            }
        } catch (InterruptedException e) {
            // finish() interrupts the sleep and takes the final sample; the flag stays for whoever runs this
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the ticks and takes the last, partial interval. */
    void finish(Thread thread) throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join();
        sample(true);
        log.flush();
    }

    Histogram measured(HistogramKind kind) {
        return measuredTotals[kind.ordinal()];
    }

    /** Each interval's counts and latency, for the per-fault figures and the steadiness of the run. */
    RunIntervals intervals() {
        return intervals;
    }

    Set<HistogramKind> kinds() {
        return kinds;
    }

    /**
     * @param last whether this is the run's final interval
     * @return when it was taken
     */
    private synchronized long sample(boolean last) {
        long now = clock.nanoTime();
        Recorders.Interval interval = recorders.drainInterval();
        long fromMillis = toEpochMillis(previousNanos);
        long toMillis = toEpochMillis(now);
        for (HistogramKind kind : kinds) {
            log.write(kind, interval.all(kind), fromMillis, toMillis);
            measuredTotals[kind.ordinal()].add(interval.measured(kind));
        }
        StreamSnapshot counts = accounting.total();
        Histogram latency = interval.all(HistogramKind.LATENCY);
        long sent = counts.sent() - previousCounts.sent();
        long received = counts.received() - previousCounts.received();
        long inFlight = counts.expected() - counts.received();
        RunPhase phase = phase(previousNanos, last);
        // the run's last interval is measured CPU time too when it began inside the measured window
        CpuUsage cpu = sampleCpu(last ? phase(previousNanos, false) : phase);
        log.writeCounts(fromMillis, toMillis, sent, counts.acked() - previousCounts.acked(), received, inFlight,
                counts.gaps(), latency, cpu);
        log.flush();
        latencySoFar.add(latency);
        intervals.add(previousNanos, now, sent, received, inFlight, latency);
        // the live figures first: whoever reads a progress line and then scrapes finds its interval served
        double target = targetRateAt.applyAsDouble(now);
        liveFigures.interval(new IntervalFigures(phase, now - window.startNanos(), now - previousNanos, counts,
                (phase == RunPhase.DRAIN || phase == RunPhase.DONE) && !Double.isNaN(target) ? 0 : target,
                IntervalFigures.Percentiles.of(latency),
                IntervalFigures.Percentiles.of(interval.all(HistogramKind.SERVICE))));
        if (live != null) {
            printLine(now, counts, cpu);
        }
        if (plain != null) {
            plain.sample(now, counts, latency, cpu);
        }
        previousNanos = now;
        previousCounts = counts;
        sendingOverBefore = sendingOver;
        return now;
    }

    /** The interval's CPU use, kept toward the measured total when it was measured; null where not watched. */
    private CpuUsage sampleCpu(RunPhase phase) {
        CpuSnapshot now = cpuWatch.snapshot();
        if (now == null || previousCpu == null) {
            return null;
        }
        CpuUsage usage = CpuUsage.between(previousCpu, now);
        if (phase == RunPhase.MEASURED) {
            if (measuredCpuFrom == null) {
                measuredCpuFrom = previousCpu;
            }
            measuredCpuTo = now;
            measuredCpuSeconds.add(usage);
        }
        previousCpu = now;
        return usage;
    }

    /**
     * The phase of an interval: where the run was when it began (a tick comes a little after the
     * second it samples, so its end would call the last second of the warm-up measured).
     */
    private RunPhase phase(long intervalStartNanos, boolean last) {
        if (last) {
            return RunPhase.DONE;
        }
        if (sendingOverBefore) {
            return RunPhase.DRAIN;
        }
        if (window.isOpen() || intervalStartNanos < window.measureStartNanos()) {
            return RunPhase.WARM_UP;
        }
        return intervalStartNanos >= window.endNanos() ? RunPhase.DRAIN : RunPhase.MEASURED;
    }

    private void printLine(long now, StreamSnapshot counts, CpuUsage cpu) {
        double seconds = Math.max(1e-9, (now - previousNanos) / 1e9);
        double elapsed = (now - window.startNanos()) / 1e9;
        String phase = window.isOpen() ? "warm-up (auto)" : now < window.measureStartNanos() ? "warm-up "
                : now > window.endNanos() ? "draining" : "        ";
        // "so far" means the measured part once it has begun: the warm-up's cold start is not news
        Histogram soFar = measuredTotals[HistogramKind.LATENCY.ordinal()];
        if (soFar.getTotalCount() == 0) {
            soFar = latencySoFar;
        }
        String total = unpaced ? "" : String.format(Locale.US, "/%.0f", window.totalSeconds());
        live.printf(Locale.US, "%6.0f%s s %s  sent %,9.0f/s  recv %,9.0f/s  p99 %s  max %s  lost %,d%s%n",
                elapsed, total, unpaced ? "" : phase,
                (counts.sent() - previousCounts.sent()) / seconds,
                (counts.received() - previousCounts.received()) / seconds,
                millis(soFar.getTotalCount() == 0 ? -1 : soFar.getValueAtPercentile(99)),
                millis(soFar.getTotalCount() == 0 ? -1 : soFar.getMaxValue()),
                counts.gaps(), PlainProgress.cpuText(cpu));
        live.flush();
    }

    private static String millis(long nanos) {
        return nanos < 0 ? "     -   " : String.format(Locale.US, "%,9.3f ms", nanos / 1e6);
    }

    private long toEpochMillis(long nanos) {
        return startEpochMillis + Math.round((nanos - window.startNanos()) / 1e6);
    }
}
