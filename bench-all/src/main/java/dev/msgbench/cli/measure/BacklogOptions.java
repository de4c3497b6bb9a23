package dev.msgbench.cli.measure;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Backlog and drain (--backlog): the consumers wait until the producers have built a backlog. */
public final class BacklogOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--backlog", paramLabel = "N|SIZE",
            description = "Hold the consumers back until the producers have sent N messages or SIZE bytes (1GiB), "
                    + "then release them, and report how fast they drained the backlog and whether the producers kept "
                    + "their schedule meanwhile. Latency then includes the wait in the backlog. Only for systems "
                    + "that store messages (Kafka, JetStream, RabbitMQ, Redis Streams).")
    String backlog;

    private Backlog parsed;

    /** @param consumers consumers per subscription (--consumers), checked already */
    void validate(int consumers) {
        if (backlog == null) {
            return;
        }
        try {
            parsed = Backlog.parse(backlog);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--backlog: " + e.getMessage());
        }
        if (consumers < 1) {
            throw new ParameterException(spec.commandLine(), "--backlog needs at least one consumer, got --consumers 0");
        }
    }

    /** Refuses a backlog on a system that keeps nothing for held-back consumers, before its broker starts. */
    void requireStoredBy(SystemTarget system) {
        if (backlog != null && !system.retainsMessages()) {
            throw new ParameterException(spec.commandLine(), FlagNames.render(LoadRun.backlogRefused(system.name())));
        }
    }

    /** {@code run} with its consumers held back when --backlog was given: until {@code worker}'s share of it was sent. */
    public RunSpec applyTo(RunSpec run, WorkerPlan worker) {
        return parsed == null ? run : run.withBacklog(worker.share(parsed));
    }
}
