package dev.msgbench.cli.isolate;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.measure.TargetOptions;
import dev.msgbench.core.UserError;
import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Separate hosts on one machine (--isolate) and the shaping of their links. */
public final class IsolateOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--isolate",
            description = "Run every broker node and the load generator on hosts of their own: network namespaces "
                    + "joined by veth links to a bridge, made for the run and removed after it (needs root).")
    public boolean isolate;

    @Mixin
    LinkOptions links = new LinkOptions();

    /**
     * The checked shaping: link flags and partitions need --isolate, and --isolate needs brokers
     * the suite starts, which the system can isolate.
     */
    public LinkShaping check(SystemTarget system, TargetOptions target, FaultPlan faults) {
        LinkShaping shaping;
        try {
            shaping = links.shaping(isolate);
        } catch (UserError e) {
            throw error(FlagNames.messageOf(e));
        }
        if (!isolate) {
            for (FaultSpec fault : faults.faults()) {
                if (fault.kind() == FaultKind.PARTITION) {
                    throw error("--fault '" + fault.text() + "': a partition cuts a node's link, which only exists "
                            + "with --isolate; add --isolate");
                }
            }
            return shaping;
        }
        if (!system.needsBroker()) {
            throw error("--isolate: " + system.name() + " runs inside this JVM, there are no hosts to separate");
        }
        if (target.url != null) {
            throw error("--isolate puts the brokers the suite starts on hosts of their own; it does not apply to --url");
        }
        String refused = system.isolateRefused(target.brokers);
        if (refused != null) {
            throw error("--isolate: " + refused);
        }
        return shaping;
    }

    /** True in the runner that must make the hosts and run itself inside them; false inside, or without --isolate. */
    public boolean makesHosts() {
        return isolate && IsolatedHosts.fromEnvironment().isEmpty();
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
