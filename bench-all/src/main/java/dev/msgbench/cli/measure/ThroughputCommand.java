package dev.msgbench.cli.measure;

import java.time.Duration;
import java.util.List;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.Limits;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "How many messages per second a system takes and delivers.",
                "",
                "Producers send --messages as fast as the system accepts them, with at most --max-outstanding "
                        + "unacknowledged per producer; the publisher is finished only when every message is "
                        + "acknowledged (E2). Rates are reported at the publisher and at the consumer, in msg/s and "
                        + "MiB/s of whole messages. Latency here is the system's time under saturation, not a "
                        + "response time at a stated load: use e2e for that.",
                "",
                PinningOptions.WHY,
                ""},
        footer = {"", "Examples:",
                "  throughput --messages 1000000 --size 100 --acks 1     E7-style Kafka producer and consumer",
                "  throughput --messages 100000 --size 1KiB --consumers 0   producer only",
                "  throughput --duration 30s --producers 3 --partitions 6",
                "  throughput --messages 1000000 --size 100 --consume-after-produce   consumer reading a stored log",
                "  throughput --duration 30s --fault restart@10s   the broker stopped cleanly and started again",
                "  throughput --messages 100000 --size uniform:100B-10KiB   sizes drawn with --seed (MiB/s as sent)",
                "  throughput --duration 1h --progress-interval 1m --output results/tp --force",
                "",
                Limits.HELP,
                "",
                "Results go to --output: " + OutputOptions.FILES,
                "",
                ExitCode.RUN_CODES})
public final class ThroughputCommand extends MeasureCommand {

    /** Messages sent when neither --messages nor --duration is given. */
    public static final long DEFAULT_MESSAGES = 100_000;
    private static final Duration DEFAULT_TIME_LIMIT = Duration.ofMinutes(10);
    private static final long DEFAULT_OUTSTANDING_BYTES = 32L << 20;

    @Option(names = "--messages", paramLabel = "N",
            description = "Messages to send, all producers together (default: 100000, or unlimited with --duration).")
    Long messageCount;

    @Option(names = "--duration", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Send for this long instead of a number of messages (with --messages: whichever comes first).")
    Duration duration;

    @Option(names = "--max-outstanding", paramLabel = "N",
            description = "Per producer, messages sent but not yet acknowledged before it waits (default: 32 MiB worth, "
                    + "like Kafka's buffer.memory: 335,544 of 100 B, 32,768 of 1 KiB, 32 of 1 MiB).")
    Integer maxOutstanding;

    @Option(names = "--consume-after-produce",
            description = "Start consumers only once every message is stored, reading from the start of the log: "
                    + "the consumer's own rate over what is stored (E7's single consumer), after one full GC so that the consumers do "
                    + "not run in the heap grown for the producers. Needs a system that stores messages.")
    boolean consumeAfterProduce;

    @Option(names = "--warmup-messages", paramLabel = "N",
            description = "Before the measured run, two runs of N/2 messages each (destinations of their own, the same "
                    + "flags otherwise) whose figures are kept apart in the folder's warmup/1 and warmup/2, as "
                    + "ProducerPerformance's --warmup-records: the JIT compiles the paths the measured run takes before "
                    + "it starts, and the second run's clients start in compiled code, as the measured run's then do. On "
                    + "a small machine a Java client's first seconds are as much compilation as load (default: 0, none).")
    long warmupMessages;

    /** @param targets every system, each also added to this command as a mixin of its flags */
    public ThroughputCommand(CellRunner runner, List<SystemTarget> targets) {
        super(runner, targets);
    }

    @Override
    int minConsumers() {
        return 0;
    }

    @Override
    Pacing pacing() {
        messages.sharing.refuseWithoutSchedule(messages.producers);
        if (messageCount != null && messageCount < 1) {
            throw new ParameterException(spec.commandLine(), "--messages must be at least 1, got " + messageCount);
        }
        if (duration != null && (duration.isZero() || duration.isNegative())) {
            throw new ParameterException(spec.commandLine(), "--duration must be longer than 0, got " + duration.toMillis() + " ms");
        }
        if (duration != null) {
            Limits.requireTimeAtMost(spec, "--duration", duration, Limits.MAX_TIME);
        }
        if (maxOutstanding != null && maxOutstanding < 1) {
            throw new ParameterException(spec.commandLine(), "--max-outstanding must be at least 1, got " + maxOutstanding);
        }
        int outstanding = maxOutstanding != null ? maxOutstanding
                : (int) Math.max(1, Math.min(1 << 20, (long) (DEFAULT_OUTSTANDING_BYTES / messages.sizes.meanBytes())));
        long count = messageCount != null ? messageCount : duration != null ? Pacing.Unpaced.UNTIL_TIME_LIMIT : DEFAULT_MESSAGES;
        if (consumeAfterProduce && messages.consumers < 1) {
            throw new ParameterException(spec.commandLine(), "--consume-after-produce needs at least one consumer, got --consumers 0");
        }
        if (consumeAfterProduce && messages.backlog.backlog != null) {
            throw new ParameterException(spec.commandLine(), "--backlog and --consume-after-produce both hold the "
                    + "consumers back; give one");
        }
        if (warmupMessages < 0) {
            throw new ParameterException(spec.commandLine(), "--warmup-messages must be 0 or more, got " + warmupMessages);
        }
        return new Pacing.Unpaced(count, outstanding, duration != null ? duration : DEFAULT_TIME_LIMIT,
                consumeAfterProduce, warmupMessages);
    }

    @Override
    void checkWith(SystemTarget system) {
        if (consumeAfterProduce && !system.retainsMessages()) {
            throw new ParameterException(spec.commandLine(),
                    FlagNames.render(LoadRun.consumingLaterRefused(system.name())));
        }
    }
}
