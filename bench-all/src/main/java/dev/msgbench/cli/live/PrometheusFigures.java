package dev.msgbench.cli.live;

import java.util.Locale;

import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.run.IntervalFigures;
import dev.msgbench.core.run.LiveFigures;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunPhase;
import dev.msgbench.core.run.RunSpec;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.core.metrics.StateSet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * A run's live figures as Prometheus metrics (docs/usage.md, "Live metrics", lists them). Set on
 * the progress monitor's thread from the interval it has just written; a scrape only reads them.
 *
 * <p>Counters follow the run's totals (warm-up included, as result.json's counts); latency
 * percentiles are the last interval's, as gauges: a percentile cannot be averaged, so a dashboard
 * draws each interval's value, or takes the max over a range.
 */
public final class PrometheusFigures implements LiveFigures {

    static final String[] PERCENTILES = {"p50", "p90", "p99", "p99.9", "max"};

    private final PrometheusRegistry registry;
    private final Info run;
    private final StateSet phase;
    private final Gauge elapsed;
    private final Counter sent;
    private final Counter received;
    private final Counter duplicated;
    private final Counter reordered;
    private final Counter sendErrors;
    private final Gauge lostSoFar;
    private final Gauge inFlight;
    private final Gauge rate;
    private final Gauge latency;
    private final Counter faults;
    /** Registered once the run says it acknowledges: a system that does not has no such figures. */
    private Counter acknowledged;
    private Gauge unacknowledged;
    private StreamSnapshot previous = StreamSnapshot.zero();

    public PrometheusFigures(PrometheusRegistry registry) {
        this.registry = registry;
        run = Info.builder().name("msgbench_run").help("What runs: the command, the system and its settings")
                .labelNames("command", "system", "client", "broker_version", "size_bytes", "producers", "consumers",
                        "load", "durability")
                .register(registry);
        phase = StateSet.builder().name("msgbench_phase")
                .help("Where the run is: warm-up, measured, drain (sending over, waiting for what is missing), done")
                .states(labels(RunPhase.values())).register(registry);
        elapsed = Gauge.builder().name("msgbench_elapsed_seconds").unit(Unit.SECONDS)
                .help("From the start of sending to the end of the last interval").register(registry);
        sent = counter("msgbench_sent", "Messages sent, warm-up included");
        received = counter("msgbench_received", "Unique messages received, warm-up included (duplicates excluded)");
        duplicated = counter("msgbench_duplicated", "Messages received more than once (each extra copy)");
        reordered = counter("msgbench_reordered", "Messages received after a later one of their stream");
        sendErrors = counter("msgbench_send_errors", "Publishes the system failed");
        lostSoFar = Gauge.builder().name("msgbench_lost_so_far")
                .help("Sequences below the highest received that have not arrived (yet): lost so far; a late arrival "
                        + "takes it back down, the final count is result.json's")
                .register(registry);
        inFlight = Gauge.builder().name("msgbench_in_flight").help("Sent but not received (yet)").register(registry);
        rate = Gauge.builder().name("msgbench_rate_messages_per_second")
                .help("Messages per second in the last interval: the schedule's target, sent and received")
                .labelNames("side").register(registry);
        latency = Gauge.builder().name("msgbench_interval_latency_seconds").unit(Unit.SECONDS)
                .help("Percentiles of the last interval's messages: response (receive - intended send, free of "
                        + "coordinated omission) and service (receive - actual send); NaN when none arrived")
                .labelNames("time", "percentile").register(registry);
        faults = Counter.builder().name("msgbench_faults")
                .help("Faults injected (--fault), counted once each is over, by kind, node and outcome")
                .labelNames("kind", "node", "outcome").register(registry);
    }

    @Override
    public void started(RunSpec config, SystemInfo info) {
        // String.valueOf: a version a system could not tell must not cost the run its labels
        run.setLabelValues(config.command(), config.systemName(), String.valueOf(info.clientVersion()),
                String.valueOf(info.brokerVersion()),
                Integer.toString(config.messageSizeBytes()), Integer.toString(config.producers()),
                Integer.toString(config.consumers()), load(config.pacing()), SummaryTable.inline(info.durability()));
        if (info.acknowledges()) {
            acknowledged = counter("msgbench_acknowledged", "Messages the system acknowledged");
            unacknowledged = Gauge.builder().name("msgbench_unacknowledged")
                    .help("Sent, neither acknowledged nor failed (yet)").register(registry);
        }
        phase.setTrue(RunPhase.WARM_UP.label());
    }

    @Override
    public void interval(IntervalFigures figures) {
        StreamSnapshot now = figures.totals();
        double seconds = Math.max(1e-9, figures.intervalNanos() / 1e9);
        rate.labelValues("target").set(figures.targetRateMsgsPerSec());
        rate.labelValues("sent").set((now.sent() - previous.sent()) / seconds);
        rate.labelValues("received").set((now.received() - previous.received()) / seconds);
        sent.inc(growth(now.sent(), previous.sent()));
        received.inc(growth(now.received(), previous.received()));
        duplicated.inc(growth(now.duplicated(), previous.duplicated()));
        reordered.inc(growth(now.reordered(), previous.reordered()));
        sendErrors.inc(growth(now.sendErrors(), previous.sendErrors()));
        lostSoFar.set(now.gaps());
        inFlight.set(Math.max(0, now.sent() - now.received()));
        if (acknowledged != null) {
            acknowledged.inc(growth(now.acked(), previous.acked()));
            unacknowledged.set(Math.max(0, now.sent() - now.acked() - now.sendErrors()));
        }
        setPercentiles("response", figures.latency());
        setPercentiles("service", figures.service());
        elapsed.set(figures.elapsedNanos() / 1e9);
        for (RunPhase p : RunPhase.values()) {
            if (p == figures.phase()) {
                phase.setTrue(p.label());
            } else {
                phase.setFalse(p.label());
            }
        }
        previous = now;
    }

    @Override
    public void fault(FaultEvent event) {
        faults.labelValues(event.kind(), event.node() == null ? "" : event.node().toString(),
                FaultEvent.DONE.equals(event.outcome()) ? "done" : "failed").inc();
    }

    private void setPercentiles(String time, IntervalFigures.Percentiles p) {
        long[] nanos = {p.p50Nanos(), p.p90Nanos(), p.p99Nanos(), p.p999Nanos(), p.maxNanos()};
        for (int i = 0; i < nanos.length; i++) {
            latency.labelValues(time, PERCENTILES[i]).set(p.count() == 0 ? Double.NaN : nanos[i] / 1e9);
        }
    }

    private Counter counter(String name, String help) {
        return Counter.builder().name(name).help(help).register(registry);
    }

    /** Counts only grow; a total read a little earlier than the last never makes a counter go back. */
    private static long growth(long now, long before) {
        return Math.max(0, now - before);
    }

    private static String load(Pacing pacing) {
        if (pacing instanceof Pacing.FixedRate fixed) {
            return String.format(Locale.US, "%s msg/s %s for %s s after %s%s s warm-up",
                    SummaryTable.number(fixed.rateMsgsPerSec()), fixed.arrival().label(),
                    SummaryTable.number(fixed.duration().toMillis() / 1e3), fixed.autoWarmup() ? "at most " : "",
                    SummaryTable.number(fixed.warmup().toMillis() / 1e3));
        }
        Pacing.Unpaced unpaced = (Pacing.Unpaced) pacing;
        return "as fast as accepted" + (unpaced.messages() == Pacing.Unpaced.UNTIL_TIME_LIMIT ? ""
                : ", " + SummaryTable.number(unpaced.messages()) + " messages");
    }

    private static String[] labels(RunPhase[] phases) {
        String[] labels = new String[phases.length];
        for (int i = 0; i < phases.length; i++) {
            labels[i] = phases[i].label();
        }
        return labels;
    }
}
