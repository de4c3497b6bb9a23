package dev.msgbench.pulsar.nativetool;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.pulsar.nativetool.PerfLog.Line;

/**
 * The rate of pulsar-perf produce, read from its log's time stamps, not from its final "Aggregated
 * throughput stats --- 1100082 records sent --- 109871.685 msg/s" line: that rate divides by the
 * time from the tool's start to its shutdown, and the tool shuts down at the first of its 10 s
 * progress ticks after it is done, so the rate of a run of 3.7 s was printed as over 10 s (a
 * third of the real one). Its count is also past the asked one: the producer keeps sending while
 * the last acknowledgements come in (1,100,082 for 1,000,000).
 *
 * <p>What the figure is read from: "Created 1 producers" (the producers are connected; the
 * sending starts), "------------- DONE (reached the maximum number: 1000000 of production)" (that
 * many were acknowledged: the tool counts a message when its send completes), and the progress
 * lines every 10 s, "Throughput produced:  3001024 msg --- 300102.4 msg/s ...", whose first number
 * is every message acknowledged so far.
 */
final class PerformanceProducerOutput {

    private static final Pattern CREATED = Pattern.compile("Created [0-9]+ producers");
    private static final Pattern DONE = Pattern.compile("DONE \\(reached the maximum number: ([0-9]+) of production\\)");
    private static final Pattern PROGRESS = Pattern.compile("Throughput produced: +([0-9]+) msg");

    private PerformanceProducerOutput() {
    }

    /**
     * The asked messages over the time from the producers' creation to the DONE line; empty when
     * the run did not reach its DONE line (killed, or failed: a killed run still prints its final
     * line, from its shutdown hook).
     */
    static Optional<String> coldRate(String output) {
        Optional<Line> created = PerfLog.first(output, CREATED);
        Optional<Line> done = PerfLog.last(output, DONE);
        if (created.isEmpty() || done.isEmpty() || done.get().epochMillis() <= created.get().epochMillis()) {
            return Optional.empty();
        }
        return Optional.of(PerfLog.rate(done.get().count(), done.get().epochMillis() - created.get().epochMillis()));
    }

    /**
     * After a warm-up of {@code warmup} messages: from the first progress line that counts them to
     * the DONE line, with the seconds the whole publishing took (the broker served the warm-up
     * too). Empty without a DONE line, or when no progress line came between the warm-up's end
     * and it, or fewer than half the measured messages came after that line ({@link PerfLog#rateAfter}).
     */
    static Optional<NativeFigure> steadyFigure(String output, long warmup) {
        Optional<Line> created = PerfLog.first(output, CREATED);
        Optional<Line> done = PerfLog.last(output, DONE);
        if (created.isEmpty() || done.isEmpty()) {
            return Optional.empty();
        }
        long millis = done.get().epochMillis() - created.get().epochMillis();
        return PerfLog.rateAfter(PerfLog.all(output, PROGRESS), warmup, done.get(), done.get().count())
                .map(rate -> new NativeFigure(new BigDecimal(rate), BigDecimal.valueOf(millis, 3)));
    }
}
