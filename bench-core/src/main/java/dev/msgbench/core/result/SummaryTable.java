package dev.msgbench.core.result;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.fault.FaultReport;

/** The table printed at the end of a run: percentiles, counts, and target against achieved rate. */
public final class SummaryTable {

    private static final String BOLD = "\u001b[1m";
    private static final String RESET = "\u001b[0m";
    /** How the warning of result.json that acknowledged messages were lost begins. */
    public static final String ACKNOWLEDGED_LOST_WARNING = "acknowledged messages lost";
    /** How the warning of a run whose consumers received messages aborted on purpose begins. */
    public static final String ABORTED_DELIVERED_WARNING = "aborted messages delivered";

    private SummaryTable() {
    }

    /**
     * @param ansi whether the output is a terminal, where the missed-rate warning is set in bold
     *             (it is framed with ** either way, so it stands out in a log too)
     */
    /** "2 s warm-up", or for {@code --warmup auto} "11 s of warm-up (auto: settled)". */
    static String warmup(Workload w) {
        if (!w.autoWarmup()) {
            return number(w.warmupSeconds()) + " s warm-up";
        }
        return number(w.warmupSeconds()) + " s of warm-up (auto: " + (Boolean.TRUE.equals(w.warmupSettled()) ? "settled"
                : "did not settle in " + number(w.warmupSeconds()) + " s") + ")";
    }

    /** "1,024 B", or with a size distribution "up to 10,240 B". */
    private static String size(Workload w) {
        boolean varies = w.messageSizes() != null && w.messageSizes().minBytes() != w.messageSizes().maxBytes();
        return String.format(Locale.US, "%s%,d B", varies ? "up to " : "", w.messageSizeBytes());
    }

    /**
     * "sizes uniform:100B-10KiB: mean 5,166 B, p50 5,171 B, ..." for a size distribution; null for
     * one size (the headline gives it) or a result written before sizes were recorded.
     */
    static String sizeLine(MessageSizeFigures sizes) {
        if (sizes == null || sizes.minBytes() == sizes.maxBytes()) {
            return null;
        }
        return String.format(Locale.US, "sizes %s: mean %,.0f B, min %,d B, p50 %,d B, p90 %,d B, p99 %,d B, max %,d B "
                        + "(measured messages sent)", sizes.distribution(), sizes.meanBytes(), sizes.minBytes(),
                sizes.p50Bytes(), sizes.p90Bytes(), sizes.p99Bytes(), sizes.maxBytes());
    }

    public static void print(RunResult r, String resultsDir, PrintStream out, boolean ansi) {
        Workload w = r.workload();
        boolean unpaced = Workload.UNPACED.equals(w.pacing());
        String clients = String.format(Locale.US, "%d producer%s, %d consumer%s", w.producers(), w.producers() == 1 ? "" : "s",
                w.consumers(), w.consumers() == 1 ? "" : "s");
        if (unpaced) {
            out.printf(Locale.US, "%n%s %s: %s, %,d messages of %s as fast as accepted (%s outstanding per producer, %s)%n",
                    r.tool(), r.command(), r.system(), w.messages(), size(w),
                    w.maxOutstanding() == 0 ? "no limit on" : String.format(Locale.US, "at most %,d", w.maxOutstanding()), clients);
        } else {
            out.printf(Locale.US, "%n%s %s: %s, %s msg/s%s of %s for %s s after %s (%s arrivals, %s)%n",
                    r.tool(), r.command(), r.system(), number(w.rateMsgsPerSec()),
                    w.rateSchedule() == null ? "" : " (mean of the schedule)", size(w),
                    number(w.durationSeconds()), warmup(w), w.arrival(), clients);
        }
        if (w.rateSchedule() != null) {
            out.println("rate schedule (after the warm-up at its first rate): " + w.rateSchedule());
        }
        String sizes = sizeLine(w.messageSizes());
        if (sizes != null) {
            out.println(sizes);
        }
        if (w.payload() != null && !"random".equals(w.payload())) {
            // the figures of bodies a compressor gains from must never pass for the method's random ones
            out.println("payload: " + w.payload() + " (a labelled experiment: bodies that compress, not random ones)");
        }
        if (w.keys() != null && !"none".equals(w.keys())) {
            out.printf(Locale.US, "keys: %s over %,d keys%n", w.keys(), w.keyCount());
        }
        out.println("durability: " + inline(r.durability()));
        if (r.settings() != null && r.settings().get("latency") instanceof String latency) {
            // a round trip (--pattern echo, NATS request-reply) must never be read as one way
            out.println("latency: " + latency);
        }
        Object isolation = r.broker() == null ? null : r.broker().get("isolation");
        if (isolation instanceof Map<?, ?> hosts && hosts.get("summary") != null) {
            out.println("hosts: " + hosts.get("summary"));
        }
        out.println();

        List<String> titles = new ArrayList<>();
        List<Map<String, Double>> columns = new ArrayList<>();
        Latencies ms = r.latenciesMs();
        addColumn(titles, columns, "latency ms", ms.latency());
        addColumn(titles, columns, "service ms", ms.service());
        if (!unpaced) {
            // without a schedule a message is due when it is sent: its send delay is 0 by definition
            addColumn(titles, columns, "send delay ms", ms.sendDelay());
        }
        addColumn(titles, columns, "ack ms", ms.ack());
        if (ms.commit() != null) {
            // one value per transaction, beside the per-message columns: what each message's latency waited for
            addColumn(titles, columns, "commit ms", ms.commit());
        }
        if (!columns.isEmpty()) {
            // a publisher-only run of a system without acknowledgements has no distribution to show
            printPercentiles(titles, columns, out);
        }
        Counts c = r.counts();
        String acknowledged = ms.ack().isEmpty() && c.acknowledged() == 0 ? "-" : String.format(Locale.US, "%,d", c.acknowledged());
        if (w.consumers() == 0) {
            out.printf(Locale.US, "  sent %,d   acknowledged %s   (no consumers: nothing received, nothing counted as lost)%n",
                    c.sent(), acknowledged);
        } else {
            out.printf(Locale.US, "  sent %,d   acknowledged %s   received %,d   lost %,d   %s   %s%n",
                    c.sent(), acknowledged, c.received(), c.lost(), DeliveryLine.duplicated(r), DeliveryLine.reordered(r));
            printSubscriptions(c, w, out);
            String delivery = DeliveryLine.of(r);
            if (delivery != null) {
                out.println("  " + delivery);
            }
        }
        if (c.aborted() != null) {
            out.printf(Locale.US, "  aborted on purpose %,d (never acknowledged, not counted as lost)   delivered all the "
                    + "same %,d%n", c.aborted(), c.abortedDelivered() == null ? 0 : c.abortedDelivered());
        }
        String promise = PromiseLine.of(r);
        if (promise != null) {
            // a broken promise stands out as a missed rate does
            out.println("  " + (PromiseLine.broken(r) ? bold("**" + promise + "**", ansi) : promise));
        }
        if (c.unsent() > 0 || c.sendErrors() > 0 || c.late() > 0 || c.foreign() > 0) {
            out.printf(Locale.US, "  unsent %,d   send errors %,d   late %,d   foreign %,d%n",
                    c.unsent(), c.sendErrors(), c.late(), c.foreign());
        }
        if (r.throughput() != null) {
            Throughput t = r.throughput();
            out.printf(Locale.US, "  publisher %s msg/s  %,.2f MiB/s  (%,d messages %s in %.3f s)%n",
                    number(t.publisherMsgsPerSec()), t.publisherMiBPerSec(), t.sent(),
                    ms.ack().isEmpty() ? "sent" : c.sendErrors() == 0 ? "acknowledged"
                            : String.format(Locale.US, "answered, %,d of them failed,", c.sendErrors()), t.publishSeconds());
            if (w.consumers() > 0) {
                out.printf(Locale.US, "  consumer  %s msg/s  %,.2f MiB/s  (%,d messages received in %.3f s%s)%n",
                        number(t.consumerMsgsPerSec()), t.consumerMiBPerSec(), t.received(), t.consumeSeconds(),
                        t.consumerFirstMessageSeconds() > 0 ? String.format(Locale.US,
                                " from the first, which came %.3f s after the consumers started", t.consumerFirstMessageSeconds()) : "");
            }
        } else {
            Rates rates = r.rates();
            out.printf(Locale.US, "  target %s msg/s   achieved %s msg/s   received %s msg/s%n",
                    number(rates.targetMsgsPerSec()), number(rates.achievedMsgsPerSec()), number(rates.receivedMsgsPerSec()));
        }
        if (r.brokerBytes() != null && r.brokerBytes().get("bytes") instanceof Number bytes
                && r.brokerBytes().get("sentBytes") instanceof Number sent) {
            // after the client's codec and the system's framing: what a compressed run saved
            out.printf(Locale.US, "  broker bytes %,d for %,d B sent%s (%s)%n", bytes.longValue(), sent.longValue(),
                    r.brokerBytes().get("ratio") instanceof Number ratio ? String.format(Locale.US, ", %.3fx", ratio.doubleValue())
                            : "", r.brokerBytes().get("counter"));
        }
        Map<String, Object> gen = r.loadGenerator();
        if (gen != null && gen.get("coresUsed") instanceof Number) {
            out.printf(Locale.US, "  load generator: %.2f of %s cores, %s GC pauses totalling %s ms%s%n",
                    ((Number) gen.get("coresUsed")).doubleValue(), gen.get("cores"), gen.get("gcCount"), gen.get("gcMillis"),
                    gen.get("spinWindowChoice") instanceof String choice ? String.format(Locale.US,
                            "; spin window %s us (%s)", number(((Number) gen.get("spinWindowMicros")).doubleValue()),
                            choice) : "");
        }
        if (r.cpu() != null && r.cpu().get("summary") instanceof String cpu) {
            out.printf(Locale.US, "  cpu over the measured %s s: %s%n", r.cpu().get("seconds") instanceof Number s
                    ? String.format(Locale.US, "%.1f", s.doubleValue()) : "?", cpu);
        }
        if (gen != null && gen.get("hiccupMs") instanceof Map && ((Map<?, ?>) gen.get("hiccupMs")).get("max") instanceof Number) {
            // our own stalls beside the latency tail: a max here close to the latency max points at this JVM, not the broker
            Map<?, ?> hiccup = (Map<?, ?>) gen.get("hiccupMs");
            out.printf(Locale.US, "  load generator stalls (hiccup meter): p99 %.3f ms, max %.3f ms%n",
                    ((Number) hiccup.get("p99")).doubleValue(), ((Number) hiccup.get("max")).doubleValue());
        }
        if (gen != null && gen.get("warmupRun") instanceof Map<?, ?> warm && warm.get("sent") instanceof Number sent) {
            int runs = warm.get("runs") instanceof List<?> each ? each.size() : 1;
            out.printf(Locale.US, "  after %s of %,d messages%s, kept apart in %s/ (%s, lost %s, publisher %s msg/s)%n",
                    runs == 1 ? "a warm-up run" : runs + " warm-up runs", sent.longValue(), runs == 1 ? "" : " in all",
                    warm.get("folder"), warm.get("status"), warm.get("lost"),
                    warm.get("publisherMsgsPerSec") instanceof Number rate ? number(rate.doubleValue()) : "n/a");
        }
        if (gen != null && gen.get("collectedBetweenPhases") instanceof Map<?, ?> between
                && between.get("heapCommittedMiB") instanceof Map<?, ?> committed) {
            // a pause the hiccup meter saw, outside both rates: its length, and why it is there
            out.printf(Locale.US, "  a full GC between producing and consuming (so the consumers start in a heap of their"
                            + " size): %.3f s, heap committed %s -> %s MiB%n",
                    ((Number) between.get("seconds")).doubleValue(), committed.get("before"), committed.get("after"));
        }
        for (FaultReport fault : r.faults()) {
            out.println("  " + faultLine(fault));
        }
        if (r.backlog() != null) {
            out.println("  " + backlogLine(r.backlog()));
        }
        if (r.rates().targetMissed()) {
            Rates rates = r.rates();
            String warning = String.format(Locale.US, "**TARGET RATE MISSED: achieved %s of %s msg/s (%.1f%%)**",
                    number(rates.achievedMsgsPerSec()), number(rates.targetMsgsPerSec()),
                    100 * rates.achievedMsgsPerSec() / rates.targetMsgsPerSec());
            out.println("  " + bold(warning, ansi));
        }
        for (String warning : r.warnings()) {
            // these two have lines of their own above
            if (!warning.startsWith("target rate missed") && !warning.startsWith(ACKNOWLEDGED_LOST_WARNING)) {
                out.println("  " + (ansi ? BOLD + "warning: " + warning + RESET : "warning: " + warning));
            }
        }
        if (r.status() != RunStatus.COMPLETE) {
            out.println("  status: " + r.status().label() + (r.error() == null ? "" : ": " + r.error()));
        }
        out.println("  results: " + resultsDir);
    }

    private static String bold(String text, boolean ansi) {
        return ansi ? BOLD + text + RESET : text;
    }

    /** One fault: what was done when, then what the run saw after it. */
    public static String faultLine(FaultReport report) {
        FaultEvent e = report.event();
        StringBuilder sb = new StringBuilder("fault ").append(e.fault());
        if (e.node() != null) {
            sb.append(" (node ").append(e.node()).append(')');
        } else if (e.everyNode()) {
            sb.append(" (every node)");
        }
        sb.append(String.format(Locale.US, ": asked %.3f s", e.askedAtSeconds()));
        if (e.doneAtSeconds() != null) {
            sb.append(String.format(Locale.US, ", done %.3f s", e.doneAtSeconds()));
        }
        if (e.endedAtSeconds() != null) {
            sb.append(String.format(Locale.US, ", ended %.3f s", e.endedAtSeconds()));
        }
        if (e.exitStatus() != null) {
            sb.append(", exit status ").append(e.exitStatus());
        }
        if (e.powerCuts() != null && !e.powerCuts().isEmpty()) {
            sb.append(", rolled back ").append(e.rolledBack());
        }
        if (!FaultEvent.DONE.equals(e.outcome())) {
            sb.append(", ").append(e.outcome());
        }
        if (report.longestNoDeliverySeconds() == null) {
            sb.append(";  no delivery for -");
        } else {
            // a gap still open at the end has no delivery to close it: say that it ran to the end
            sb.append(String.format(Locale.US, ";  no delivery for %s%.3f s%s",
                    Boolean.TRUE.equals(report.noDeliveryToEnd()) ? "the last " : "", report.longestNoDeliverySeconds(),
                    Boolean.TRUE.equals(report.noDeliveryToEnd()) ? " of the run" : ""));
        }
        sb.append(",  max latency after ").append(report.maxLatencyAfterMs() == null ? "-"
                : String.format(Locale.US, "%,.3f ms", report.maxLatencyAfterMs()));
        sb.append(",  ").append(report.recoverySeconds() == null ? "not recovered"
                : String.format(Locale.US, "recovered after %.1f s", report.recoverySeconds()));
        return sb.toString();
    }

    /** With fan-out the counts above are deliveries: say so, and name the subscriptions that lost any. */
    /** "backlog 100000 messages: reached at 2.000 s, consumers released at 2.004 s, drained in 0.800 s at 130,000 msg/s; producers kept 5,000 msg/s". */
    public static String backlogLine(BacklogFigures b) {
        StringBuilder line = new StringBuilder(String.format(Locale.US, "backlog %s: %s at %.3f s, consumers released "
                + "at %.3f s (%,d deliveries waiting)", b.backlog(), b.reached() ? "reached" : "NOT reached, sending over",
                b.reachedAtSeconds(), b.releasedAtSeconds(), b.deliveriesWaiting()));
        if (b.readyAtSeconds() != null) {
            line.append(String.format(Locale.US, " and ready at %.3f s", b.readyAtSeconds()));
        }
        line.append(", ");
        if (!b.drained()) {
            return line.append("not drained").toString();
        }
        line.append(String.format(Locale.US, "drained in %.3f s", b.drainSeconds()));
        if (b.drainRateMsgsPerSec() != null) {
            line.append(String.format(Locale.US, " at %,.0f msg/s", b.drainRateMsgsPerSec()));
        }
        if (b.scheduleKept() != null) {
            line.append(String.format(Locale.US, "; producers %s: %,.0f of %,.0f msg/s during the drain",
                    b.scheduleKept() ? "kept their schedule" : "MISSED their schedule", b.sendRateDuringDrainMsgsPerSec(),
                    b.targetRateMsgsPerSec()));
        } else if (b.sendRateDuringDrainMsgsPerSec() != null) {
            line.append(String.format(Locale.US, "; producers sent %,.0f msg/s during the drain",
                    b.sendRateDuringDrainMsgsPerSec()));
        }
        return line.toString();
    }

    private static void printSubscriptions(Counts c, Workload w, PrintStream out) {
        if (c.subscriptions() == null) {
            return;
        }
        long losing = c.subscriptions().stream().filter(s -> s.lost() > 0).count();
        out.printf(Locale.US, "  %d topics x %d subscriptions: deliveries expected %,d (each message once per subscription "
                + "of its topic); %d subscriptions lost messages%n", w.topics(), w.subscriptionsPerTopic(),
                c.deliveriesExpected(), losing);
        c.subscriptions().stream().filter(s -> s.lost() > 0).limit(10).forEach(s -> out.printf(Locale.US,
                "    topic %d subscription %d: expected %,d   received %,d   lost %,d%n", s.topic(), s.subscription(),
                s.expected(), s.received(), s.lost()));
    }

    private static void printPercentiles(List<String> titles, List<Map<String, Double>> columns, PrintStream out) {
        out.printf("%-10s", "");
        for (String title : titles) {
            out.printf("%15s", title);
        }
        out.println();
        List<String> rows = new ArrayList<>();
        Percentiles.REPORTED.forEach(p -> rows.add(p.getKey()));
        rows.add("max");
        for (String row : rows) {
            out.printf("%-10s", "  " + row);
            for (Map<String, Double> column : columns) {
                Double v = column.get(row);
                out.printf(Locale.US, "%15s", v == null ? "-" : String.format(Locale.US, "%,.3f", v));
            }
            out.println();
        }
        out.println();
    }

    private static void addColumn(List<String> titles, List<Map<String, Double>> columns, String title,
                                  Map<String, Double> values) {
        if (!values.isEmpty()) {
            titles.add(title);
            columns.add(values);
        }
    }

    /** A map on one line: k=v  k=v, as the summary shows settings. */
    public static String inline(Map<String, Object> map) {
        StringBuilder sb = new StringBuilder();
        map.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "  ").append(k).append('=').append(v));
        return sb.length() == 0 ? "(none reported)" : sb.toString();
    }

    /** A count or rate as the summary shows it: 1,000 or 1,234.5. */
    public static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.format(Locale.US, "%,d", (long) value);
        }
        return String.format(Locale.US, "%,.1f", value);
    }
}
