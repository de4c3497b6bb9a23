package dev.msgbench.cli.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.Limits;
import dev.msgbench.core.UserError;
import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.fault.NodeChoice;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.core.units.Durations;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Faults injected while a run measures (--fault), and how long the system may stay away after one. */
public final class FaultOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--fault", paramLabel = "FAULT",
            description = "A fault at a time from the start of the measured window (repeatable): pause=2s@10s "
                    + "(SIGSTOP, SIGCONT 2 s later), kill@10s (SIGKILL, started again on its own data after 5 s, "
                    + "or :restart-after=3s or never), restart@10s (clean stop and start), partition=3s@10s (with --isolate: "
                    + "the node's link cut for 3 s), power-loss@10s (SIGKILL, the node's disk loses every write never "
                    + "synced, started again on what it kept after 5 s or :restart-after; its nodes then run on "
                    + "forgetful disks, which needs root and FUSE; only where messages live on disk: kafka, jetstream "
                    + "with file storage, rabbitmq durable and quorum queues, redis-streams with persistence), "
                    + "slow-disk=50ms@10s:for=5s (every fsync of the node's disk 50 ms longer for 5 s; the same "
                    + "systems, disks and needs), disk-full@10s:for=5s (writes that need space fail with ENOSPC for "
                    + "5 s, then space returns; the same systems, on disks without the page cache); each "
                    + "acts on the local broker's :node=N, leader (the default), any-follower or a node its "
                    + "system names (a Pulsar cluster's bookies, :node=bookie-1 to bookie-3), power-loss, "
                    + "slow-disk and disk-full also on :node=all, every node that keeps messages on a disk (a Pulsar "
                    + "cluster's three bookies, not its brokers; for power-loss: every such node killed, then every "
                    + "disk cut, then all started together). "
                    + "exec@30s='COMMAND' runs your command "
                    + "(sh -c) instead, for a cluster given with --url; its exit status and output are kept. "
                    + "Each fault is in result.json, latency.hlog and the summary, with the longest time without "
                    + "delivery, the max latency and the recovery time after it.")
    List<String> faults = new ArrayList<>();

    @Option(names = "--fault-timeout", paramLabel = "TIME", defaultValue = "60s", converter = TimeConverter.class,
            description = "End the run, with partial results, when nothing is delivered for this long after a fault "
                    + "(default: ${DEFAULT-VALUE}); also the limit of an exec command and of a node's restart.")
    Duration faultTimeout;

    /**
     * The checked plan: every value parses, faults on a node need a broker the suite starts, and each
     * fault is due inside the measured window.
     */
    FaultPlan plan(SystemTarget system, TargetOptions target, Pacing pacing) {
        if (faultTimeout.isZero() || faultTimeout.isNegative()) {
            throw error("--fault-timeout must be longer than 0, got " + Durations.format(faultTimeout));
        }
        Limits.requireTimeAtMost(spec, "--fault-timeout", faultTimeout, Limits.MAX_TIME);
        Duration window = pacing instanceof Pacing.FixedRate fixed ? fixed.duration() : ((Pacing.Unpaced) pacing).timeLimit();
        List<FaultSpec> specs = new ArrayList<>();
        for (String value : faults) {
            FaultSpec fault;
            try {
                fault = FaultSpec.parse(value);
            } catch (UserError e) {
                throw error("--fault " + FlagNames.messageOf(e));
            }
            if (fault.needsLocalBroker() && !system.needsBroker()) {
                throw error("--fault '" + value + "': " + system.name() + " runs inside this JVM, there is no broker to "
                        + fault.kind().label() + "; use exec@TIME='COMMAND' for a command of your own");
            }
            if (!system.faults().contains(fault.kind())) {
                throw error("--fault '" + value + "': " + system.name() + " cannot take a " + fault.kind().label()
                        + " fault; it takes " + system.faults().stream().map(FaultKind::label).toList());
            }
            if (fault.needsLocalBroker() && target.url != null) {
                throw error("--fault '" + value + "': " + fault.kind().label() + " acts on a broker the suite starts, "
                        + "not on one given with --url; use exec@TIME='COMMAND' to run a command that acts on yours");
            }
            String diskless = fault.kind().onDisk()
                    ? system.diskFaultRefused(target.brokers, target.brokerProps, fault.node()) : null;
            if (diskless != null) {
                throw error("--fault '" + value + "': " + fault.kind().label() + " acts on a node's disk, and "
                        + system.name() + " keeps no message there: " + diskless);
            }
            if (fault.needsLocalBroker() && fault.node().rule() == NodeChoice.Rule.NUMBER
                    && fault.node().number() > target.brokers) {
                throw error("--fault '" + value + "': node " + fault.node().number() + " does not exist with --brokers "
                        + target.brokers);
            }
            if (fault.needsLocalBroker() && fault.node().rule() == NodeChoice.Rule.NAMED) {
                fault = fault.withNode(NodeChoice.node(namedNode(system, target, value, fault.node())));
            }
            if (fault.at().compareTo(window) >= 0) {
                throw error("--fault '" + value + "': at " + Durations.format(fault.at()) + ", not inside the measured "
                        + Durations.format(window) + " (--duration); times count from the end of the warm-up");
            }
            specs.add(fault);
        }
        return new FaultPlan(specs, faultTimeout);
    }

    /** The number of node=ROLE-N, as the system numbers it, or its refusal naming the value. */
    private int namedNode(SystemTarget system, TargetOptions target, String value, NodeChoice node) {
        try {
            return system.namedNode(node.role(), node.number(), target.brokers);
        } catch (UserError e) {
            throw error("--fault '" + value + "': node=" + node.label() + ": " + FlagNames.messageOf(e));
        }
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
