package dev.msgbench.cli;

import java.time.Duration;
import java.util.List;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The largest values a run accepts, so that a value no run can carry out is refused on one line
 * before anything starts instead of hanging, overflowing a clock or starting a million threads.
 * Each is far beyond any real run; --help states them.
 */
public final class Limits {

    /**
     * The smallest gap between two intended sends of one producer: 100 ns, a few times the
     * resolution of System.nanoTime and below what any client takes to send one message.
     * A finer schedule is not a schedule, only a backlog that grows from the first second.
     */
    public static final long MIN_SEND_INTERVAL_NANOS = 100;
    public static final double MAX_RATE_PER_PRODUCER = 1e9 / MIN_SEND_INTERVAL_NANOS;

    /** Any time a run measures or waits; beyond it (or beyond 292 years) nanosecond clocks overflow. */
    public static final Duration MAX_TIME = Duration.ofDays(30);

    /** Threads or connections of producers or consumers (and producers or consumers that have one each). */
    public static final int MAX_CLIENTS = 1000;

    /**
     * Producer streams or consumers as logical clients that share threads and connections
     * (--producer-threads, --consumer-connections): a few hundred bytes each, and OpenMessaging
     * Benchmark's largest workload has 4,000,000 of each.
     */
    static final int MAX_LOGICAL_CLIENTS = 10_000_000;

    /** Nodes of a local cluster: each is a broker process on this one machine. */
    public static final int MAX_LOCAL_NODES = 9;

    public static final String HELP = "Limits: at most 10,000,000 msg/s per producer (one send every 100 ns), "
            + "30 days of warm-up plus measured time, 10,000,000 producers or consumers (topics included), sharing at "
            + "most 1,000 threads or connections, 9 local broker nodes.";

    private Limits() {
    }

    public static void requireTimeAtMost(CommandSpec spec, String flag, Duration value, Duration max) {
        if (value.compareTo(max) > 0) {
            throw new ParameterException(spec.commandLine(), flag + " must be at most " + human(max) + ", got "
                    + given(spec, flag, value));
        }
    }

    public static void requireClientsAtMost(CommandSpec spec, String flag, int value) {
        if (value > MAX_CLIENTS) {
            throw new ParameterException(spec.commandLine(), flag + " must be at most " + MAX_CLIENTS
                    + " (each is a thread and a connection), got " + value);
        }
    }

    /** Producers or consumers as logical clients: a product of flags, computed in a long so that it cannot overflow. */
    public static void requireLogicalClientsAtMost(CommandSpec spec, String flag, long value) {
        if (value > MAX_LOGICAL_CLIENTS) {
            throw new ParameterException(spec.commandLine(), String.format(java.util.Locale.US, "%s must be at most "
                    + "%,d, got %,d", flag, MAX_LOGICAL_CLIENTS, value));
        }
    }

    /** The value as the user typed it: a huge time is clamped by its parser, and the clamped number would be news. */
    public static String given(CommandSpec spec, String flag, Duration parsed) {
        OptionSpec option = spec.commandLine().getParseResult() == null ? null
                : spec.commandLine().getParseResult().matchedOption(flag);
        List<String> typed = option == null ? List.of() : option.stringValues();
        return typed.isEmpty() ? human(parsed) : typed.get(typed.size() - 1);
    }

    public static String human(Duration d) {
        if (d.toHours() >= 24 && d.toHours() % 24 == 0) {
            return d.toDays() + " days";
        }
        if (d.toMillis() % 1000 == 0) {
            return d.toSeconds() + " s";
        }
        return d.toMillis() + " ms";
    }
}
