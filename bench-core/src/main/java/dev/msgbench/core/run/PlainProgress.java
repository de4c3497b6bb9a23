package dev.msgbench.core.run;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.SummaryTable;

/**
 * What a run prints while it goes for a reader who is not watching a terminal (CI logs, tee,
 * nohup): what runs, once sending starts, and then a plain line every interval, so that a long
 * run is seen advancing and the log of a run that never ended shows how far it got. On a terminal
 * only the header is printed (interval 0): the live line shows the rest.
 */
public final class PlainProgress {

    private final PrintStream out;
    private final long everyNanos;
    /** Latency since the last line: "current", where the summary's is the whole run's. */
    private final Histogram latency = Recorders.newHistogram();
    /** The CPUs' use since the last line; null where not watched. */
    private CpuUsage cpu;
    private RunWindow window;
    private boolean unpaced;
    private long nextNanos;

    /** @param every how often a line is printed; 0 for the header alone */
    public PlainProgress(PrintStream out, Duration every) {
        this.out = out;
        this.everyNanos = every.toNanos();
    }

    /** Prints the header; the run's sending starts now. */
    void start(RunSpec config, SystemInfo info, RunWindow window) {
        this.window = window;
        this.unpaced = config.pacing() instanceof Pacing.Unpaced;
        this.nextNanos = window.startNanos() + everyNanos;
        String clients = String.format(Locale.US, "%d producer%s, %d consumer%s", config.producers(),
                config.producers() == 1 ? "" : "s", config.consumers(), config.consumers() == 1 ? "" : "s");
        if (config.sharing().sharesProducerThreads(config.producers()) || config.sharing().consumerConnections() > 0) {
            clients += String.format(Locale.US, "; producers on %,d thread%s, consumers on %s", config.producerThreads(),
                    config.producerThreads() == 1 ? "" : "s", config.sharing().consumerConnections() == 0
                            ? "a connection each" : String.format(Locale.US, "%,d shared connections",
                            config.sharing().consumerConnections()));
        }
        String load;
        if (config.pacing() instanceof Pacing.FixedRate fixed) {
            String warmup = fixed.autoWarmup()
                    ? "a warm-up until settled (auto, at most " + SummaryTable.number(fixed.warmup().toSeconds()) + " s)"
                    : SummaryTable.number(fixed.warmup().toMillis() / 1e3) + " s warm-up";
            load = String.format(Locale.US, "%s msg/s of %,d B for %s s after %s (%s arrivals, %s)",
                    SummaryTable.number(fixed.rateMsgsPerSec()), config.messageSizeBytes(),
                    SummaryTable.number(fixed.duration().toMillis() / 1e3), warmup, fixed.arrival().label(), clients);
        } else {
            Pacing.Unpaced limits = (Pacing.Unpaced) config.pacing();
            load = String.format(Locale.US, "%s messages of %,d B as fast as accepted, for at most %s s (%s)",
                    limits.messages() == Long.MAX_VALUE ? "unlimited" : SummaryTable.number(limits.messages()),
                    config.messageSizeBytes(), SummaryTable.number(limits.timeLimit().toMillis() / 1e3), clients);
        }
        out.printf(Locale.US, "sending: %s %s, %s; durability: %s%n", config.command(), config.systemName(), load,
                SummaryTable.inline(info.durability()));
        out.flush();
    }

    /** "  cpu 54%": how busy the machine's CPUs were, for the end of a progress line; empty where not known. */
    static String cpuText(CpuUsage cpu) {
        return cpu == null || cpu.busyShare() == null ? "" : String.format(Locale.US, "  cpu %.0f%%", 100 * cpu.busyShare());
    }

    /** Takes one of the monitor's intervals; prints a line when one is due. */
    void sample(long nowNanos, StreamSnapshot counts, Histogram intervalLatency) {
        sample(nowNanos, counts, intervalLatency, null);
    }

    /**
     * As {@link #sample(long, StreamSnapshot, Histogram)}, with the interval's CPU use (null where
     * not watched): the line ends with how busy the machine's CPUs were since the last line.
     */
    void sample(long nowNanos, StreamSnapshot counts, Histogram intervalLatency, CpuUsage intervalCpu) {
        if (everyNanos == 0 || window == null) {
            return;
        }
        latency.add(intervalLatency);
        if (intervalCpu != null) {
            cpu = cpu == null ? intervalCpu : cpu.plus(intervalCpu);
        }
        if (nowNanos < nextNanos) {
            return;
        }
        while (nextNanos <= nowNanos) {
            nextNanos += everyNanos;
        }
        double elapsed = (nowNanos - window.startNanos()) / 1e9;
        String phase = window.isOpen() ? "warm-up (auto)" : nowNanos < window.measureStartNanos() ? "warm-up"
                : nowNanos > window.endNanos() ? "draining" : "measuring";
        String time = unpaced ? String.format(Locale.US, "%.0f s", elapsed)
                : String.format(Locale.US, "%.0f of %s%.0f s, %s", elapsed, window.isOpen() ? "at most " : "",
                window.totalSeconds(), phase);
        String p99 = latency.getTotalCount() == 0 ? "-"
                : String.format(Locale.US, "%,.3f ms", latency.getValueAtPercentile(99) / 1e6);
        out.printf(Locale.US, "progress: %s  sent %,d  received %,d  lost %,d  p99 %s (last %s s)%s%n", time,
                counts.sent(), counts.received(), counts.gaps(), p99, SummaryTable.number(everyNanos / 1e9), cpuText(cpu));
        out.flush();
        latency.reset();
        cpu = null;
    }
}
