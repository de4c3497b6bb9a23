package dev.msgbench.cli.measure;

import java.util.List;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Limits;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "e2e", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "End-to-end latency at a fixed target rate.",
                "",
                "Producers send on a schedule fixed in advance and never wait for replies. Each message carries "
                        + "its intended and actual send times; the receiving side records latency = receive - intended "
                        + "(the headline, free of coordinated omission) and service time = receive - actual send.",
                "",
                "Without --url a local broker is started on free ports and stopped afterwards.",
                "",
                PinningOptions.WHY,
                ""},
        footer = {"", "Examples:",
                "  e2e --acks all                       Kafka, local broker, 1KiB at 1,000 msg/s",
                "  e2e --brokers 3 --replication-factor 3 --acks all",
                "  e2e --rate 2000 --duration 20s --size 256B",
                "  e2e --bootstrap-servers 127.0.0.1:9092 --partitions 6 --producers 2",
                "  e2e --broker-prop log.flush.interval.messages=1   (fsync every message)",
                "  e2e --system nats --broker-cpus 0 --cpus 1         (broker and load generator on a core each)",
                "  e2e --system nats --rate 1000 --duration 20s --fault pause=2s@5s   (the broker stopped for 2 s)",
                "  e2e --rate-schedule '1000/s for 30s, 1000/s to 5000/s over 30s, 3 x (9000/s for 2s)'",
                "  e2e --system redis --size 'weights:100B=80,1KiB=15,64KiB=5'   (sizes drawn with --seed)",
                "  e2e --brokers 3 --replication-factor 3 --acks all --fault kill@10s:node=leader --duration 40s",
                "  e2e --url nats://db1:4222 --fault exec@10s='ssh db1 sudo systemctl restart nats'",
                "  e2e --output results/base --force                  (write over an earlier run's results)",
                "  e2e --duration 1h --progress-interval 1m > run.log 2>&1   (a progress line a minute in the log)",
                "",
                Limits.HELP,
                "",
                "Results go to --output: " + OutputOptions.FILES,
                "",
                ExitCode.RUN_CODES})
public final class E2eCommand extends MeasureCommand {

    @Mixin
    LoadOptions load;

    @Mixin
    RateScheduleOptions rateSchedule;

    /** @param targets every system, each also added to this command as a mixin of its flags */
    public E2eCommand(CellRunner runner, List<SystemTarget> targets) {
        super(runner, targets);
    }

    @Override
    int minConsumers() {
        return 1;
    }

    @Override
    Pacing pacing() {
        return rateSchedule.given() ? rateSchedule.pacing(load, messages.producers) : load.pacing(messages.producers);
    }

    /** --workers and --pattern echo give each producer and consumer a thread or connection of its own. */
    @Override
    void checkWith(SystemTarget system) {
        int consumers = messages.consumers * messages.destinations.topics * messages.destinations.subscriptionsPerTopic;
        if (workers.workers != null) {
            messages.sharing.refuseWith("--workers", messages.producers, consumers);
        }
        if (echo.echo()) {
            messages.sharing.refuseWith("--pattern echo", messages.producers, consumers);
        }
    }
}
