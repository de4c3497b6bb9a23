package dev.msgbench.cli.broker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * calibrate --power-loss: the power cuts of --fault power-loss set against answers Redis's own
 * documentation gives ("Redis persistence", redis.io), on Redis Streams with its AOF. With
 * appendfsync everysec Redis writes each change to the AOF before it replies and fsyncs once a
 * second: a killed server loses nothing (the kernel still writes its page cache out), a machine
 * that loses its power loses up to the last second. With always it fsyncs before it replies, and
 * loses nothing to either. Only a real power cut tells everysec's two cases apart, so a layer that
 * forgot nothing, or a kill that lost the page cache, shows here.
 *
 * <p>The consumers are held back until after the fault (--backlog): a message received before the
 * power went counts as delivered, whatever the disk then lost.
 */
final class PowerLossCalibration {

    static final String SYSTEM = "redis-streams";
    /** The flags each case sets; given by the user they would change the answer. */
    static final List<String> SET_HERE = List.of("--system", "--rate", "--duration", "--warmup", "--fault", "--backlog",
            "--drain-timeout", "--broker-prop", "--brokers", "--url", "--acks");

    private static final String RATE = "2000";
    private static final String DURATION = "5s";
    private static final String FAULT_AT = "1500ms";
    private static final String RESTART_AFTER = "500ms";
    /** Reached at 4 s, after the restart: the consumers then read what the node kept. */
    private static final String BACKLOG = "8000";
    /** What is still missing by then was lost; no need to wait longer. */
    private static final String DRAIN_TIMEOUT = "2s";

    /** One run: the AOF's fsync policy, the fault, and whether documented Redis loses acknowledged entries to it. */
    record Case(String appendfsync, String fault, boolean loses) {

        String folder() {
            return appendfsync + "-" + fault;
        }

        String expected() {
            return loses ? "more than 0" : "0";
        }
    }

    static final List<Case> CASES = List.of(new Case("everysec", "kill", false), new Case("everysec", "power-loss", true),
            new Case("always", "kill", false), new Case("always", "power-loss", false));

    private final Io io;
    private final CellRunner runner;

    PowerLossCalibration(Io io, CellRunner runner) {
        this.io = io;
        this.runner = runner;
    }

    /** Every case's cell, checked as e2e checks it, before any runs: bad input costs no broker. */
    static List<ParsedCell> cells(Io io, List<String> e2eFlags, Path dir) {
        List<ParsedCell> cells = new ArrayList<>();
        for (Case c : CASES) {
            cells.add(CellCheck.parse(io, args(c, e2eFlags, dir.resolve(c.folder()))));
        }
        return cells;
    }

    private static List<String> args(Case c, List<String> e2eFlags, Path out) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", SYSTEM));
        args.addAll(e2eFlags);
        args.addAll(List.of("--broker-prop", "appendonly=yes", "--broker-prop", "appendfsync=" + c.appendfsync(),
                "--rate", RATE, "--duration", DURATION, "--warmup", "0s", "--backlog", BACKLOG,
                "--drain-timeout", DRAIN_TIMEOUT, "--fault", c.fault() + "@" + FAULT_AT + ":restart-after=" + RESTART_AFTER,
                "--output", out.toString()));
        return args;
    }

    /** Runs every case, then says per case whether it lost what Redis's documentation says: calibrate's exit code. */
    int run(List<ParsedCell> cells, Path dir) {
        List<String> lines = new ArrayList<>();
        boolean allAsExpected = true;
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            CellOutcome outcome = runner.run(cells.get(i), dir.resolve(c.folder()));
            if (outcome.exitCode() == ExitCode.INTERRUPTED) {
                return ExitCode.INTERRUPTED.code();
            }
            String verdict = verdict(c, outcome);
            allAsExpected &= verdict.startsWith("AS EXPECTED");
            lines.add(String.format(Locale.US, "  appendfsync %-8s %-10s %s", c.appendfsync(), c.fault(), verdict));
        }
        io.out().println();
        io.out().printf(Locale.US, "calibrate --power-loss: %s with appendonly yes, %s msg/s for %s, the fault at %s, "
                + "consumers held back until after it%n", SYSTEM, RATE, DURATION, FAULT_AT);
        lines.forEach(io.out()::println);
        io.out().println(allAsExpected
                ? "  AS EXPECTED: a kill loses nothing Redis acknowledged, a power cut loses what it had not fsynced"
                : "  NOT AS EXPECTED: the fault layer does not behave as a kill and a power cut do; see the runs above");
        io.out().println("  results: " + dir);
        return (allAsExpected ? ExitCode.OK : ExitCode.RUN_FAILED).code();
    }

    /** "AS EXPECTED: 0 of 8,828 acknowledged entries lost (expected 0)", or why not. */
    private static String verdict(Case c, CellOutcome outcome) {
        RunResult result = outcome.result();
        if (result == null || result.status() != RunStatus.COMPLETE) {
            return "RUN FAILED: " + (outcome.error() == null ? "no result" : outcome.error());
        }
        String outcomeOfFault = result.faults().isEmpty() ? "not carried out" : result.faults().get(0).event().outcome();
        if (!"done".equals(outcomeOfFault)) {
            return "RUN FAILED: the " + c.fault() + " " + outcomeOfFault;
        }
        long lost = result.counts().acknowledgedLost();
        boolean asExpected = c.loses() == (lost > 0);
        return String.format(Locale.US, "%s: %,d of %,d acknowledged entries lost (expected %s)",
                asExpected ? "AS EXPECTED" : "NOT AS EXPECTED", lost, result.counts().acknowledged(), c.expected());
    }
}
