package dev.msgbench.core.run;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.ToolVersion;
import dev.msgbench.core.analysis.Steadiness;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Losses;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.record.SubscriptionSnapshot;
import dev.msgbench.core.result.BacklogFigures;
import dev.msgbench.core.result.BrokerByteFigures;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.DeliveryLine;
import dev.msgbench.core.result.Environment;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.Latencies;
import dev.msgbench.core.result.MessageSizeFigures;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.Rates;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.SubscriptionCounts;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.result.Throughput;
import dev.msgbench.core.result.Workload;
import dev.msgbench.core.units.Durations;

/** Turns what a run observed into its {@link RunResult}: counts, rates, latencies and warnings. */
final class ResultBuilder {

    private static final double RATE_TOLERANCE = 0.01;
    /** How the warning of a run that was not steady begins: the workload table's status reads it. */
    static final String NOT_STEADY_WARNING = "not steady: ";
    /** How the warning of an automatic warm-up that reached its bound begins. */
    static final String UNSETTLED_WARNING = "warm-up did not settle within ";
    /** What the warning of a run whose bodies are not random says after the payload. */
    static final String PAYLOAD_WARNING = "a labelled experiment, not the method's random bodies; compression "
            + "may gain from them, so compare these figures only with runs of the same payload";

    private final RunSpec config;
    private final RunObservation run;
    private final StreamSnapshot total;
    private final List<String> warnings = new ArrayList<>();
    private final SettingNames names;

    private ResultBuilder(RunSpec config, RunObservation run, SettingNames names) {
        this.config = config;
        this.run = run;
        this.total = run.accounting().total();
        this.names = names;
    }

    /** @param names how the warnings and the error name the settings they mention */
    static RunResult build(RunSpec config, RunObservation run, SettingNames names) {
        return new ResultBuilder(config, run, names).build();
    }

    private RunResult build() {
        RatesAndThroughput rates = config.pacing() instanceof Pacing.FixedRate fixed ? fixedRates(fixed) : unpacedRates();
        Counts counts = counts();
        warnAboutLosses(counts);
        warnAboutUnsettledWarmup();
        warnAboutBacklog();
        warnAboutPayload();
        if (run.brokerBytesError() != null) {
            warnings.add("the broker's byte counter could not be read: " + run.brokerBytesError());
        }
        Steadiness steadiness = steadiness();
        return new RunResult(RunResult.SCHEMA_VERSION, ToolVersion.NAME, ToolVersion.version(), config.command(),
                status(), run.failure() == null ? null : Redaction.redactUrl(LoadRun.oneLine(run.failure(), names)),
                run.startedAt(), Instant.now().toString(), config.systemName(), workload(),
                Redaction.redact(run.info().durability()), Redaction.redact(settings()), versions(),
                Redaction.redact(config.broker()), Environment.describe(), counts, rates.rates, latencies(),
                rates.throughput, run.generatorUsage(), warnings, files(), run.faults(), steadiness, run.backlog(),
                run.cpu() == null ? null : run.cpu().describe(), Redaction.redact(RunSpecJson.toMap(config)),
                brokerBytes());
    }

    /** The broker's count beside the bytes the run sent (headers included, the whole run): what compression saved. */
    private Map<String, Object> brokerBytes() {
        if (run.brokerBytes() == null) {
            return null;
        }
        return BrokerByteFigures.of(run.brokerBytes().counter(), run.brokerBytes().bytes(), run.sends().sentBytes());
    }

    /** The system's settings and how the clients shared threads and connections (the system cannot know the threads). */
    private Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>(run.info().settings());
        int consumers = config.consumers() * run.accounting().topics() * run.accounting().subscriptionsPerTopic();
        settings.put("producerThreads", config.producerThreads());
        settings.put("consumerConnections", config.sharing().connectionsFor(consumers));
        DeliveryPromise delivery = run.delivery();
        if (delivery != null && delivery.isSaid()) {
            settings.put(DeliveryLine.KEY, DeliveryLine.describe(delivery.label(), delivery.orderPromised(),
                    delivery.redelivers(), delivery.witness()));
        }
        return settings;
    }

    private void warnAboutBacklog() {
        BacklogFigures backlog = run.backlog();
        if (backlog == null) {
            return;
        }
        warnings.add(BacklogFigures.LATENCY_NOTE);
        if (!backlog.drained()) {
            warnings.add(String.format(Locale.US, "backlog: the consumers did not read the backlog of %,d deliveries "
                    + "before the run ended", backlog.deliveriesWaiting()));
        } else if (Boolean.FALSE.equals(backlog.scheduleKept())) {
            warnings.add(String.format(Locale.US, "backlog: the producers missed their schedule while the consumers "
                    + "drained: %,.0f of %,.0f msg/s", backlog.sendRateDuringDrainMsgsPerSec(),
                    backlog.targetRateMsgsPerSec()));
        }
    }

    /** Bodies a compressor may gain from: the method's rule is random ones, so such a run is a labelled experiment. */
    private void warnAboutPayload() {
        if (!config.payload().isRandom()) {
            warnings.add(Phrase.of("%s %s: %s", Setting.PAYLOAD, config.payload().spec(), PAYLOAD_WARNING).render(names));
        }
    }

    /**
     * Judged on a fixed schedule only, and not with faults, whose whole point is a window that is
     * not steady; a run that is not steady says so among its warnings.
     */
    private Steadiness steadiness() {
        // a rate schedule changes the load on purpose: there is no one steady state to judge
        // nor with a backlog, whose drain is a second state on purpose
        if (!(config.pacing() instanceof Pacing.FixedRate fixed) || !run.faults().isEmpty() || run.stoppedEarly()
                || fixed.schedule() != null || run.backlog() != null) {
            return null;
        }
        Steadiness steadiness = Steadiness.judge(run.measuredSeconds(), fixed.rateMsgsPerSec());
        if (steadiness.verdict() == Steadiness.Verdict.NOT_STEADY) {
            warnings.add(NOT_STEADY_WARNING + String.join("; ", steadiness.reasons()) + Phrase.of(" (a longer %s, or %s "
                    + "auto, measures the settled system)", Setting.WARMUP, Setting.WARMUP).render(names));
        }
        return steadiness;
    }

    /** The measured window of such a run most likely holds a transient: the steadiness judgement will tell. */
    private void warnAboutUnsettledWarmup() {
        if (config.pacing() instanceof Pacing.FixedRate fixed && fixed.autoWarmup() && !run.window().settled()
                && !run.stoppedEarly()) {
            warnings.add(String.format(Locale.US, "%s%d s; measuring anyway", UNSETTLED_WARNING, fixed.warmup().toSeconds()));
        }
    }

    private RunStatus status() {
        return run.failure() != null ? RunStatus.FAILED : run.interrupted() ? RunStatus.INTERRUPTED : RunStatus.COMPLETE;
    }

    private Counts counts() {
        // without consumers nothing is received, and nothing counted as lost
        Losses losses = config.consumers() == 0 ? Losses.NONE : run.accounting().losses();
        if (!run.info().acknowledges()) {
            // a system that acknowledges nothing promised nothing
            losses = new Losses(0, losses.total());
        }
        long aborted = run.accounting().aborted();
        return new Counts(total.sent(), total.acked(), total.sendErrors(), total.received(), losses.acknowledged(),
                losses.unacknowledged(), total.duplicated(), total.reordered(), total.late(), run.sends().unsent(),
                run.accounting().foreign(), run.sends().measuredSent(), total.expected(), perSubscription(),
                aborted == 0 ? null : aborted, aborted == 0 ? null : run.accounting().abortedDelivered());
    }

    /**
     * Beyond this many subscriptions (OMB's million topics), result.json lists only those that lost,
     * copied, reordered or received late: the others add nothing to the totals, and a line each for a
     * million would make a file of hundreds of megabytes.
     */
    static final int LISTED_SUBSCRIPTIONS = 10_000;

    /** Only where there is more than one: with one topic and one subscription the totals are its counts. */
    private List<SubscriptionCounts> perSubscription() {
        Accounting accounting = run.accounting();
        if (accounting.topics() * accounting.subscriptionsPerTopic() == 1) {
            return null;
        }
        List<SubscriptionCounts> subscriptions = new ArrayList<>();
        boolean listAll = accounting.topics() * accounting.subscriptionsPerTopic() <= LISTED_SUBSCRIPTIONS;
        for (SubscriptionSnapshot s : accounting.perSubscription()) {
            Losses losses = config.consumers() == 0 ? Losses.NONE : s.losses();
            if (!run.info().acknowledges()) {
                losses = new Losses(0, losses.total());
            }
            StreamSnapshot c = s.counts();
            SubscriptionCounts counts = new SubscriptionCounts(s.topic(), s.subscription(), c.expected(), c.received(),
                    losses.acknowledged(), losses.unacknowledged(), c.duplicated(), c.reordered(), c.late());
            if (listAll || counts.lost() + counts.duplicated() + counts.reordered() + counts.late() > 0) {
                subscriptions.add(counts);
            }
        }
        return subscriptions;
    }

    private Latencies latencies() {
        return new Latencies(Percentiles.inMillis(run.measured(HistogramKind.LATENCY)),
                Percentiles.inMillis(run.measured(HistogramKind.SERVICE)),
                Percentiles.inMillis(run.measured(HistogramKind.SEND_DELAY)),
                Percentiles.inMillis(run.measured(HistogramKind.ACK)),
                run.measured(HistogramKind.COMMIT).getTotalCount() == 0 ? null
                        : Percentiles.inMillis(run.measured(HistogramKind.COMMIT)));
    }

    private record RatesAndThroughput(Rates rates, Throughput throughput) {
    }

    /** Over the measured window: what was due in it, and what of it went out and came back. */
    private RatesAndThroughput fixedRates(Pacing.FixedRate fixed) {
        RunWindow window = run.window();
        RunObservation.SendTotals sends = run.sends();
        double sendSeconds = (Math.max(window.endNanos(), sends.lastMeasuredSendNanos()) - window.measureStartNanos()) / 1e9;
        double achieved = sends.measuredSent() / sendSeconds;
        double scheduled = (sends.measuredSent() + sends.unsent()) / window.measuredSeconds();
        double receiveSeconds = (Math.max(window.endNanos(), run.ends().lastReceiveNanos()) - window.measureStartNanos()) / 1e9;
        double received = run.measured(HistogramKind.LATENCY).getTotalCount() / receiveSeconds;
        boolean missed = !run.stoppedEarly() && achieved < (1 - RATE_TOLERANCE) * scheduled;
        double target = fixed.rateMsgsPerSec();
        if (missed) {
            warnings.add(String.format(Locale.US, "target rate missed: achieved %.1f msg/s of %.1f (%.1f%%)%s",
                    achieved, target, 100 * achieved / target,
                    fixed.schedule() == null ? ""
                            : ", the mean of the measured part of " + names.nameOf(Setting.RATE_SCHEDULE)));
        }
        return new RatesAndThroughput(new Rates(target, achieved, received, missed, maxBehindMs()), null);
    }

    /** Over the whole run, at each end: publisher until all was acknowledged, consumer until all arrived. */
    private RatesAndThroughput unpacedRates() {
        RunWindow window = run.window();
        RunObservation.Ends ends = run.ends();
        long lastSend = run.sends().lastMeasuredSendNanos();
        // without acknowledgements the publisher is done when its flush returns (the server has
        // it all, as the native tools count it), not when the last message left for a buffer
        long publishEnd = run.info().acknowledges() ? Math.max(lastSend, ends.lastAckNanos())
                : Math.max(lastSend, ends.flushedNanos());
        double publishSeconds = Math.max(1e-9, (publishEnd - window.startNanos()) / 1e9);
        // consumers started after the producers are timed from their first message, as Kafka's
        // ConsumerPerformance times its fetching: the start and group join before it are stated apart
        boolean readFromFirst = ends.firstReceiveNanos() != Long.MIN_VALUE && ends.lastReceiveNanos() > ends.firstReceiveNanos();
        double consumeSeconds = Math.max(1e-9,
                (ends.lastReceiveNanos() - (readFromFirst ? ends.firstReceiveNanos() : ends.consumeStartNanos())) / 1e9);
        double firstMessageSeconds = readFromFirst ? (ends.firstReceiveNanos() - ends.consumeStartNanos()) / 1e9 : 0;
        double achieved = total.sent() / publishSeconds;
        double received = config.consumers() == 0 ? 0 : total.received() / consumeSeconds;
        // the bytes of the messages themselves: with a size distribution no two runs' means agree exactly
        double publishedMiB = run.sends().sentBytes() / 1048576.0;
        double receivedMiB = run.ends().receivedBytes() / 1048576.0;
        Throughput throughput = new Throughput(total.sent(), total.received(), publishSeconds, achieved,
                publishedMiB / publishSeconds, config.consumers() == 0 ? 0 : consumeSeconds, received,
                config.consumers() == 0 ? 0 : receivedMiB / consumeSeconds, firstMessageSeconds);
        return new RatesAndThroughput(new Rates(0, achieved, received, false, maxBehindMs()), throughput);
    }

    private double maxBehindMs() {
        return run.sends().maxBehindNanos() / 1e6;
    }

    private Workload workload() {
        return pacedWorkload().withDestinations(run.accounting().topics(), run.accounting().subscriptionsPerTopic())
                .withKeys(config.keys().spec(), config.keys().count()).withPayload(config.payload().spec());
    }

    private Workload pacedWorkload() {
        double drainSeconds = config.drainTimeout().toNanos() / 1e9;
        if (config.pacing() instanceof Pacing.FixedRate fixed) {
            // an automatic warm-up as it was decided: the readers of the interval log take it from here
            return new Workload(Workload.FIXED_RATE, fixed.rateMsgsPerSec(), 0, 0, config.messageSizeBytes(),
                    run.window().warmupSeconds(), fixed.duration().toNanos() / 1e9, fixed.arrival().label(),
                    config.producers(), config.consumers(), config.seed(), drainSeconds,
                    fixed.autoWarmup() ? Workload.AUTO_WARMUP : Workload.FIXED_WARMUP,
                    fixed.autoWarmup() ? run.window().settled() : null,
                    fixed.schedule() == null ? null : fixed.schedule().spec(), messageSizes());
        }
        Pacing.Unpaced unpaced = (Pacing.Unpaced) config.pacing();
        return new Workload(Workload.UNPACED, 0, unpaced.messages(), unpaced.maxOutstanding(), config.messageSizeBytes(),
                0, run.window().totalSeconds(), "none", config.producers(), config.consumers(), config.seed(), drainSeconds,
                Workload.NO_WARMUP, null, null, messageSizes());
    }

    private MessageSizeFigures messageSizes() {
        return MessageSizeFigures.of(config.sizes().spec(), run.sends().measuredSizes(), config.messageSizeBytes(),
                run.sends().measuredSent(), run.sends().sentBytes(), run.ends().receivedBytes());
    }

    private void warnAboutLosses(Counts counts) {
        long unsent = run.sends().unsent();
        if (unsent > 0) {
            warnings.add(String.format(Locale.US, "%,d scheduled messages were not sent (run %s)", unsent,
                    run.stoppedEarly() ? "stopped early" : config.pacing() instanceof Pacing.Unpaced
                            ? "reached its time limit" : "fell too far behind schedule"));
        }
        if (!run.drained()) {
            warnings.add("drain timed out after " + Durations.format(config.drainTimeout())
                    + ": messages still missing are counted as lost");
        }
        if (counts.acknowledgedLost() > 0) {
            warnings.add(String.format(Locale.US, "%s: %,d of %,d acknowledged were never received; the system broke the "
                    + "promise of its durability settings", SummaryTable.ACKNOWLEDGED_LOST_WARNING, counts.acknowledgedLost(),
                    counts.acknowledged()));
        }
        if (counts.abortedDelivered() != null && counts.abortedDelivered() > 0) {
            warnings.add(String.format(Locale.US, "%s: %,d deliveries of the %,d messages aborted on purpose; %s",
                    SummaryTable.ABORTED_DELIVERED_WARNING, counts.abortedDelivered(), counts.aborted(),
                    run.abortedDeliveryHint() == null ? "the consumers should have seen none: a fault of the system"
                            : "expected: " + run.abortedDeliveryHint()));
        }
        // a node the run killed, restarted or cut the power of explains its losses better than the system's guess
        boolean nodeWentAway = run.faults().stream().anyMatch(f -> Arrays.stream(FaultKind.values())
                .anyMatch(k -> k.stopsNode() && k.label().equals(f.event().kind())));
        if (counts.lost() > 0 && run.lossHint() != null && !nodeWentAway) {
            warnings.add(String.format(Locale.US, "%,d messages lost; %s", counts.lost(), run.lossHint()));
        }
        if (total.sendErrors() > 0) {
            warnings.add(String.format(Locale.US, "%,d sends failed; first: %s", total.sendErrors(),
                    LoadRun.oneLine(run.firstSendError(), names)));
        }
        if (run.subscriberErrors() > 0) {
            warnings.add("subscriber failed: " + LoadRun.oneLine(run.firstSubscriberError(), names));
        }
        if (total.late() > 0) {
            warnings.add(String.format(Locale.US, "%,d messages arrived too late to be checked for duplication", total.late()));
        }
        if (run.accounting().foreign() > 0) {
            warnings.add(String.format(Locale.US, "%,d messages received that this run did not send",
                    run.accounting().foreign()));
        }
        String generatorWarning = LoadGeneratorMonitor.warning(run.generatorUsage());
        if (generatorWarning != null) {
            warnings.add(generatorWarning);
        }
        if (run.cpu() != null) {
            warnings.addAll(run.cpu().warnings());
        }
    }

    private Map<String, String> versions() {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("tool", ToolVersion.version());
        versions.put("client", run.info().clientVersion());
        versions.put("broker", run.info().brokerVersion());
        return versions;
    }

    private Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("intervalLog", IntervalLog.FILE_NAME);
        files.put("intervalCounts", IntervalLog.COUNTS_FILE_NAME);
        run.measured().forEach((kind, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                files.put(kind.tag(), kind.tag() + ".hgrm");
            }
        });
        if (run.measured(HistogramKind.COMMIT).getTotalCount() > 0) {
            files.put("commitLog", ResultFiles.COMMIT_LOG);
        }
        return files;
    }
}
