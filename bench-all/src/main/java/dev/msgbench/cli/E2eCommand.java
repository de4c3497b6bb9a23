package dev.msgbench.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.RunConfig;
import dev.msgbench.core.time.NanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "e2e", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "End-to-end latency at a fixed target rate.",
                "",
                "Producers send on a schedule fixed in advance and never wait for replies. Each message carries "
                        + "its intended and actual send times; the receiving side records latency = receive - intended "
                        + "(the headline, free of coordinated omission) and service time = receive - actual send.",
                "",
                "Without --url a local broker is started on free ports and stopped afterwards.",
                ""},
        footer = {"", "Examples:",
                "  e2e --acks all                       Kafka, local broker, 1KiB at 1,000 msg/s",
                "  e2e --brokers 3 --replication-factor 3 --acks all",
                "  e2e --rate 2000 --duration 20s --size 256B",
                "  e2e --bootstrap-servers 127.0.0.1:9092 --partitions 6 --producers 2",
                "  e2e --broker-prop log.flush.interval.messages=1   (fsync every message)",
                "",
                "Results go to --output: result.json, latency.hgrm, service.hgrm and latency.hlog."})
final class E2eCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Mixin
    LoadOptions load;

    @Mixin
    OutputOptions output;

    private final Map<String, SystemTarget> targets = new LinkedHashMap<>();

    /** @param targets every system, each also added to this command as a mixin of its flags */
    E2eCommand(Io io, List<SystemTarget> targets) {
        this.io = io;
        targets.forEach(t -> this.targets.put(t.name(), t));
    }

    @Override
    public Integer call() throws Exception {
        load.validate();
        SystemTarget system = selectedTarget();
        if (target.brokers < 1) {
            throw new ParameterException(spec.commandLine(), "--brokers must be at least 1, got " + target.brokers);
        }
        if (target.url != null && (target.brokers != 1 || !target.brokerProps.isEmpty())) {
            throw new ParameterException(spec.commandLine(),
                    "--brokers and --broker-prop configure a local broker and cannot be used with --url");
        }
        system.validate(target.acks, target.url == null ? target.brokers : 0);
        Path dir = output.resolve(system.name()).toAbsolutePath().normalize();
        Map<String, Object> brokerInfo = new LinkedHashMap<>();
        LocalBroker broker = null;
        try {
            String url = target.url;
            if (url == null) {
                io.err().println("starting a local " + system.name() + " broker (" + target.brokers + " node"
                        + (target.brokers == 1 ? "" : "s") + ") ...");
                broker = system.startLocalBroker(new SystemTarget.BrokerRequest(target.brokers, target.brokerProps,
                        dir.resolve("broker-logs"), load.sizeBytes));
                url = broker.url();
                io.err().println(system.name() + " " + broker.version() + " ready at " + url);
                brokerInfo.put("local", true);
                brokerInfo.put("nodes", broker.nodeCount());
                brokerInfo.put("brokerProps", target.brokerProps);
                brokerInfo.put("logs", dir.resolve("broker-logs").toString());
            } else {
                brokerInfo.put("local", false);
            }
            brokerInfo.put("url", url);
            try (MessagingSystem messaging = system.connect(
                    new SystemTarget.ConnectRequest(url, target.acks, broker, load.sizeBytes))) {
                RunConfig config = new RunConfig("e2e", system.name(), load.rate, (int) load.sizeBytes, load.warmup,
                        load.duration, load.producers, load.consumers, load.arrival, load.seed, load.drainTimeout,
                        java.time.Duration.ofSeconds(60), dir, !output.quiet && io.terminal(), brokerInfo);
                LoadRun run = new LoadRun(config, messaging, NanoClock.system(), io.out(),
                        config.progress() ? io.err() : null, io.terminal());
                CleanupRegistry.Registration registration = CleanupRegistry.register("e2e run", () -> run.interruptAndAwait(15_000));
                try {
                    RunResult result = run.execute();
                    return RunResult.INTERRUPTED.equals(result.status()) ? Main.INTERRUPTED : Main.OK;
                } finally {
                    registration.deregister();
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    private SystemTarget selectedTarget() {
        Map<String, SystemTarget> all = targets;
        SystemTarget selected = all.get(target.system);
        if (selected == null) {
            throw new ParameterException(spec.commandLine(), "--system must be one of " + String.join(", ", all.keySet())
                    + ", got '" + target.system + "'");
        }
        for (SystemTarget other : all.values()) {
            if (other == selected) {
                continue;
            }
            CommandSpec mixin = spec.mixins().get(other.name());
            for (OptionSpec option : mixin.options()) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new ParameterException(spec.commandLine(), option.longestName() + " applies to --system "
                            + other.name() + " only, not " + selected.name());
                }
            }
        }
        return selected;
    }
}
