package dev.msgbench.cli.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.msgbench.cli.Limits;
import dev.msgbench.core.Setting;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The system a measuring command's --system names, and the checks of the flags that go with
 * it: another system's flag, broker flags for a system without a broker, local-broker flags
 * with --url. Each is reported against the command that was given it.
 */
public final class SystemSelection {

    private final CommandSpec spec;
    private final Map<String, SystemTarget> targets;

    /** @param targets every system, each also added to the command as a mixin of its flags */
    SystemSelection(CommandSpec spec, Map<String, SystemTarget> targets) {
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
        if (target.brokers > Limits.MAX_LOCAL_NODES) {
            throw new ParameterException(spec.commandLine(), "--brokers must be at most " + Limits.MAX_LOCAL_NODES
                    + " (nodes of a local cluster, all on this machine), got " + target.brokers);
        }
        if (!selected.needsBroker() && (target.url != null || target.brokers != 1 || !target.brokerProps.isEmpty()
                || pinning.brokerCpus != null)) {
            throw new ParameterException(spec.commandLine(), "--url, --brokers, --broker-prop and --broker-cpus mean "
                    + "nothing to --system " + selected.name() + ", which runs inside this JVM without a broker");
        }
        if (target.forgetfulDisks && (!selected.needsBroker() || target.url != null)) {
            throw new ParameterException(spec.commandLine(), "--forgetful-disks puts a local broker's nodes on disks "
                    + "that can lose power; " + (target.url != null ? "with --url the suite starts no broker"
                    : selected.name() + " runs inside this JVM without a broker"));
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
            CpuAffinity.requireTaskset(pinning.cpus != null ? Setting.CPUS : Setting.BROKER_CPUS);
        }
        selected.validate(target.acks, target.url == null ? target.brokers : 0);
        selected.checkProps(target.brokerProps).forEach(w -> spec.commandLine().getErr().println("warning: " + w));
        return selected;
    }
}
