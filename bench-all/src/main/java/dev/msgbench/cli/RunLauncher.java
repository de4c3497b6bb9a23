package dev.msgbench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.cpu.PinnedJvm;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunConfig;
import dev.msgbench.core.time.NanoClock;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * What every measuring command does around the engine: pick the system, check its flags, start
 * a local broker unless --url is given, run, and always stop the broker again.
 */
final class RunLauncher {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Io io;
    private final CommandSpec spec;
    private final Map<String, SystemTarget> targets;

    RunLauncher(Io io, CommandSpec spec, Map<String, SystemTarget> targets) {
        this.io = io;
        this.spec = spec;
        this.targets = targets;
    }

    /** The system whose flag it is, and those that borrow it: "redis and redis-streams". */
    private String systemsReading(String flag, SystemTarget owner) {
        List<String> names = new ArrayList<>(List.of(owner.name()));
        targets.values().stream().filter(t -> t.borrowedFlags().contains(flag)).forEach(t -> names.add(t.name()));
        return String.join(" and ", names);
    }

    /** The system named by --system; a flag that belongs to another system is an error. */
    SystemTarget select(TargetOptions target, PinningOptions pinning) {
        SystemTarget selected = targets.get(target.system);
        if (selected == null) {
            throw new ParameterException(spec.commandLine(), "--system must be one of " + String.join(", ", targets.keySet())
                    + ", got '" + target.system + "'");
        }
        for (SystemTarget other : targets.values()) {
            if (other == selected) {
                continue;
            }
            CommandSpec mixin = spec.mixins().get(other.name());
            for (OptionSpec option : mixin.options()) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)
                        && !selected.borrowedFlags().contains(option.longestName())) {
                    throw new ParameterException(spec.commandLine(), option.longestName() + " applies to --system "
                            + systemsReading(option.longestName(), other) + " only, not " + selected.name());
                }
            }
        }
        if (target.brokers < 1) {
            throw new ParameterException(spec.commandLine(), "--brokers must be at least 1, got " + target.brokers);
        }
        if (!selected.needsBroker() && (target.url != null || target.brokers != 1 || !target.brokerProps.isEmpty()
                || pinning.brokerCpus != null)) {
            throw new ParameterException(spec.commandLine(), "--url, --brokers, --broker-prop and --broker-cpus mean "
                    + "nothing to --system " + selected.name() + ", which runs inside this JVM without a broker");
        }
        if (target.url != null && (target.brokers != 1 || !target.brokerProps.isEmpty())) {
            throw new ParameterException(spec.commandLine(),
                    "--brokers and --broker-prop configure a local broker and cannot be used with --url");
        }
        if (target.url != null && pinning.brokerCpus != null) {
            throw new ParameterException(spec.commandLine(),
                    "--broker-cpus pins a local broker and cannot be used with --url");
        }
        if (pinning.any()) {
            CpuAffinity.requireTaskset(pinning.cpus != null ? "--cpus" : "--broker-cpus");
        }
        selected.validate(target.acks, target.url == null ? target.brokers : 0);
        return selected;
    }

    /** Runs one measurement and returns the command's exit code. */
    int run(String command, SystemTarget system, TargetOptions target, PinningOptions pinning, MessageOptions messages,
            OutputOptions output, Pacing pacing) throws Exception {
        // before the broker and every load thread: threads inherit the CPUs of the thread that starts them
        try (PinnedJvm pinned = pinning.cpus == null ? null : PinnedJvm.pin(pinning.cpus, "--cpus")) {
            if (pinned != null) {
                io.err().println("load generator pinned to CPUs " + pinning.cpus + " (--cpus)");
            }
            // pinned alone, our JVM must not hand its CPUs to the broker it starts
            CpuList brokerCpus = pinning.brokerCpus != null ? pinning.brokerCpus
                    : pinned != null ? pinned.before() : null;
            return run(command, system, target, pinning, brokerCpus, messages, output, pacing);
        }
    }

    private int run(String command, SystemTarget system, TargetOptions target, PinningOptions pinning,
                    CpuList brokerCpus, MessageOptions messages, OutputOptions output, Pacing pacing) throws Exception {
        Path dir = output.resolve(system.name()).toAbsolutePath().normalize();
        Map<String, Object> brokerInfo = new LinkedHashMap<>();
        LocalBroker broker = null;
        try {
            String url = target.url;
            if (!system.needsBroker()) {
                url = "in-process";
                brokerInfo.put("local", true);
                brokerInfo.put("nodes", 0);
            } else if (url == null) {
                io.err().println("starting a local " + system.name() + " broker (" + target.brokers + " node"
                        + (target.brokers == 1 ? "" : "s") + (brokerCpus == null ? "" : ", CPUs " + brokerCpus)
                        + ") ...");
                broker = system.startLocalBroker(new SystemTarget.BrokerRequest(target.brokers, target.brokerProps,
                        dir.resolve("broker-logs"), messages.sizeBytes, brokerCpus));
                url = broker.url();
                io.err().println(system.name() + " " + broker.version() + " ready at " + url);
                brokerInfo.put("local", true);
                brokerInfo.put("nodes", broker.nodeCount());
                brokerInfo.put("brokerProps", target.brokerProps);
                brokerInfo.put("logs", dir.resolve("broker-logs").toString());
                brokerInfo.put("cpus", pinning.brokerCpus == null ? null : pinning.brokerCpus.toString());
                brokerInfo.put("cpusAllowed", cpusAllowed(broker));
            } else {
                brokerInfo.put("local", false);
            }
            brokerInfo.put("url", url);
            try (MessagingSystem messaging = system.connect(
                    new SystemTarget.ConnectRequest(url, target.acks, broker, messages.sizeBytes))) {
                RunConfig config = new RunConfig(command, system.name(), pacing, (int) messages.sizeBytes,
                        messages.producers, messages.consumers, messages.seed, messages.drainTimeout, READY_TIMEOUT, dir,
                        !output.quiet && io.terminal(), brokerInfo, pinning.cpus);
                LoadRun run = new LoadRun(config, messaging, NanoClock.system(messages.spinWindow.toNanos()), io.out(),
                        config.progress() ? io.err() : null, io.terminal());
                CleanupRegistry.Registration registration = CleanupRegistry.register(command + " run",
                        () -> run.interruptAndAwait(15_000));
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

    /** Each node's Cpus_allowed_list as the kernel reports it, read once it is ready. */
    static List<String> cpusAllowed(LocalBroker broker) {
        List<String> allowed = new ArrayList<>();
        for (int node = 1; node <= broker.nodeCount(); node++) {
            allowed.add(CpuAffinity.allowed(broker.pid(node)).map(CpuList::toString).orElse("unknown"));
        }
        return allowed;
    }
}
