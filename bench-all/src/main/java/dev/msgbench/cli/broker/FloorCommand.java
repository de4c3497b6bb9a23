package dev.msgbench.cli.broker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.msgbench.cli.Converters;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.measure.OutputFolder;
import dev.msgbench.core.UserError;
import dev.msgbench.core.floor.PingPongFloor;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.SummaryTable;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.units.Durations;
import dev.msgbench.core.units.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "floor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The latency floor of this machine: a TCP ping-pong over loopback, paced and measured as e2e is.",
                "",
                "One thread sends --size bytes at --rate on a fixed schedule to an echo on 127.0.0.1, another reads "
                        + "the echoes; each round trip counts from the message's intended send time. A message "
                        + "through a broker crosses loopback twice and wakes two threads, as one exchange here does, so "
                        + "an e2e p50 near this floor has little left to gain on the client side. Run it beside e2e "
                        + "with the same --size, --rate and --spin-window to compare on one machine.",
                ""},
        footer = {"", "Examples:",
                "  floor",
                "  floor --size 1KiB --rate 1000 --duration 20s     (then e2e with the same three flags)",
                "  floor --json floor.json",
                "",
                "Exit codes: 0 measured, 1 an echo never came back or the socket failed, 2 bad input, 130 interrupted."})
public final class FloorCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1KiB", converter = Converters.Size.class,
            description = "Bytes each way per exchange, as e2e's --size (default: ${DEFAULT-VALUE}).")
    long sizeBytes;

    @Option(names = "--rate", paramLabel = "EXCHANGES_PER_SEC", defaultValue = "1000",
            description = "Exchanges per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "20s", converter = TimeConverter.class,
            description = "The measured time (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "5s", converter = TimeConverter.class,
            description = "Exchanges before the measured time, not recorded (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--spin-window", paramLabel = "TIME", defaultValue = "80us", converter = TimeConverter.class,
            description = "How long before each send the sender stops sleeping and spins, as e2e's --spin-window "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration spinWindow;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the figures (milliseconds) to FILE as JSON, for scripts.")
    Path json;

    public FloorCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        PingPongFloor.Settings settings = settings();
        if (json != null) {
            // said before the measuring, not after it
            OutputFolder.requireFilePlace(spec.commandLine(), "--json", json, "floor.json");
        }
        io.out().printf("floor: TCP ping-pong over loopback, %s each way, %s exchanges/s for %s after %s of warm-up%n",
                Sizes.format(settings.sizeBytes()), SummaryTable.number(rate), Durations.format(duration), Durations.format(warmup));
        PingPongFloor.Outcome outcome;
        try {
            outcome = PingPongFloor.measure(settings, NanoClock.system(spinWindow.toNanos()));
        } catch (IOException e) {
            io.err().println("floor: " + e.getMessage());
            return ExitCode.RUN_FAILED.code();
        }
        io.out().println("  round trip   " + line(outcome.roundTrip()) + "   (from the intended send time)");
        io.out().println("  service time " + line(outcome.serviceTime()) + "   (from the actual send)");
        io.out().println("  sent " + SummaryTable.number(outcome.sent()) + ", answered " + SummaryTable.number(outcome.answered()));
        if (json != null) {
            write(outcome);
        }
        if (outcome.answered() != outcome.sent()) {
            io.err().println("floor: " + (outcome.sent() - outcome.answered()) + " of " + outcome.sent()
                    + " exchanges never came back");
            return ExitCode.RUN_FAILED.code();
        }
        return ExitCode.OK.code();
    }

    private PingPongFloor.Settings settings() {
        if (sizeBytes < PayloadHeader.BYTES || sizeBytes > 16L * 1024 * 1024) {
            throw new ParameterException(spec.commandLine(), "--size must be from " + PayloadHeader.BYTES
                    + " B (the header) to 16 MiB, got " + sizeBytes + " B");
        }
        if (!(rate > 0) || rate > 1_000_000) {
            throw new ParameterException(spec.commandLine(), "--rate must be above 0 and at most 1,000,000 exchanges/s, got "
                    + SummaryTable.number(rate));
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--duration must be above 0, got " + Durations.format(duration));
        }
        if (warmup.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--warmup must not be negative, got " + Durations.format(warmup));
        }
        return new PingPongFloor.Settings((int) sizeBytes, rate, warmup, duration);
    }

    private static String line(Histogram histogram) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, Double> p : Percentiles.inMillis(histogram).entrySet()) {
            if (p.getKey().equals("p50") || p.getKey().equals("p90") || p.getKey().equals("p99")
                    || p.getKey().equals("p99.9") || p.getKey().equals("max")) {
                text.append(String.format("  %s %.3f ms", p.getKey(), p.getValue()));
            }
        }
        return text.toString().trim();
    }

    private void write(PingPongFloor.Outcome outcome) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("sizeBytes", sizeBytes);
        figures.put("rate", rate);
        figures.put("durationSeconds", duration.toNanos() / 1e9);
        figures.put("warmupSeconds", warmup.toNanos() / 1e9);
        figures.put("spinWindowNanos", spinWindow.toNanos());
        figures.put("sent", outcome.sent());
        figures.put("answered", outcome.answered());
        figures.put("roundTripMs", Percentiles.inMillis(outcome.roundTrip()));
        figures.put("serviceTimeMs", Percentiles.inMillis(outcome.serviceTime()));
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), figures);
        } catch (IOException e) {
            throw new UserError("--json " + json + ": cannot write the figures: " + e.getMessage(), e);
        }
    }
}
