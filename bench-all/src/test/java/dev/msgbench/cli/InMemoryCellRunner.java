package dev.msgbench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.measure.MessageOptions;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.RunFailedException;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;

/**
 * Runs each cell through the real engine, on a fake clock, against an in-memory system the test
 * makes for it: the command line, the engine, the result and the exit code as they are, with only
 * the broker in memory. One producer and one consumer per cell, as the fake clock needs.
 */
final class InMemoryCellRunner implements CellRunner {

    private final Io io;
    private final Function<ManualClock, InMemorySystem> systems;

    /** @param systems the system of a cell, waiting on the cell's clock */
    InMemoryCellRunner(Io io, Function<ManualClock, InMemorySystem> systems) {
        this.io = io;
        this.systems = systems;
    }

    @Override
    public CellOutcome run(ParsedCell cell, Path outputDir) {
        ManualClock clock = new ManualClock(0);
        MessageOptions m = cell.messages();
        RunSpec config = new RunSpec(cell.command(), cell.system().name(), cell.pacing(), (int) m.sizeBytes, 1, 1,
                m.seed, m.drainTimeout, Duration.ofSeconds(5), outputDir.toAbsolutePath(), false, Map.of("local", true),
                null);
        try (InMemorySystem system = systems.apply(clock)) {
            return CellOutcome.of(FakeClockRuns.loadRun(config, system, clock, io.out()).execute());
        } catch (RunFailedException e) {
            return new CellOutcome(ErrorLines.report(e, io.err()), e.partialResult(), ErrorLines.oneLine(e.getMessage()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
