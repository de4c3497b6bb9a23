package dev.msgbench.cli.measure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.isolate.IsolateOptions;
import dev.msgbench.cli.isolate.IsolatedRun;
import dev.msgbench.cli.workers.WorkerOptions;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What e2e and throughput share: the flags of every measurement (the system, pinning, messages,
 * faults, echo, output, workers, isolation, metrics), the order their checks run in, and the
 * call that runs the cell here or in isolated hosts. Each command adds only its pacing.
 */
public abstract class MeasureCommand implements Callable<Integer>, CheckedCommand {

    /** The names of the mixins below, as picocli knows them (their fields' names). */
    static final List<String> SHARED_MIXINS = List.of("target", "pinning", "messages", "faults", "echo", "output",
            "workers", "isolation", "metrics");

    private final CellRunner runner;
    private final Map<String, SystemTarget> targets = new LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Mixin
    PinningOptions pinning;

    @Mixin
    MessageOptions messages;

    @Mixin
    FaultOptions faults;

    @Mixin
    EchoOptions echo;

    @Mixin
    OutputOptions output;

    @Mixin
    public WorkerOptions workers;

    @Mixin
    IsolateOptions isolation;

    @Mixin
    MetricsOptions metrics;

    /** @param targets every system, each also added to this command as a mixin of its flags */
    MeasureCommand(CellRunner runner, List<SystemTarget> targets) {
        this.runner = runner;
        targets.forEach(t -> this.targets.put(t.name(), t));
    }

    /** The fewest --consumers this command runs with. */
    abstract int minConsumers();

    /** This command's own flags checked, after the messages' and before the system is chosen: its pacing. */
    abstract Pacing pacing();

    /** Checks of this command's own flags against the chosen system; before the echo, fault and isolation checks. */
    void checkWith(SystemTarget system) {
    }

    @Override
    public final Integer call() {
        ParsedCell cell = checkFlags();
        if (isolation.makesHosts()) {
            return IsolatedRun.run(cell.args(), target.brokers, isolation.check(cell.system(), target, cell.faults()),
                    spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        return runner.run(cell, output.prepare(spec.commandLine(), cell.system().name(), cell.worker()::folder))
                .exitCode().code();
    }

    @Override
    public final ParsedCell checkFlags() {
        messages.validate(minConsumers());
        Pacing pacing = pacing();
        SystemTarget system = new SystemSelection(spec, targets).select(target, pinning);
        messages.backlog.requireStoredBy(system);
        checkWith(system);
        echo.validate(system, target, messages);
        FaultPlan plan = faults.plan(system, target, pacing);
        isolation.check(system, target, plan);
        return ParsedCell.of(spec, system, target, pinning, messages, pacing, output, plan, echo)
                .withWorker(workers.plan(messages.producers, messages.consumers, pacing,
                        System.getenv(WorkerOptions.INDEX_ENV)))
                .withMetrics(metrics.check(isolation));
    }
}
