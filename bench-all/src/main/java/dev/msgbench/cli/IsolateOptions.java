package dev.msgbench.cli;

import java.time.Duration;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.core.UserError;
import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Separate hosts on one machine (--isolate) and the shaping of their links. */
final class IsolateOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--isolate",
            description = "Run every broker node and the load generator on hosts of their own: network namespaces "
                    + "joined by veth links to a bridge, made for the run and removed after it (needs root).")
    boolean isolate;

    @Option(names = "--link-delay", paramLabel = "TIME", converter = Converters.Time.class,
            description = "With --isolate: delay added to every packet a host sends (netem), e.g. 1ms.")
    Duration linkDelay;

    @Option(names = "--link-jitter", paramLabel = "TIME", converter = Converters.Time.class,
            description = "With --isolate: random variation of --link-delay (netem), e.g. 200us.")
    Duration linkJitter;

    @Option(names = "--link-loss", paramLabel = "PERCENT",
            description = "With --isolate: packets each host link drops at random (netem), e.g. 0.1%%.")
    String linkLoss;

    @Option(names = "--link-rate", paramLabel = "RATE",
            description = "With --isolate: each host link's rate limit (tbf, or netem where present), e.g. 1gbit.")
    String linkRate;

    /**
     * The checked shaping: link flags and partitions need --isolate, and --isolate needs brokers
     * the suite starts.
     */
    LinkShaping check(SystemTarget system, TargetOptions target, FaultPlan faults) {
        LinkShaping shaping;
        try {
            shaping = new LinkShaping(LinkShaping.nanos("--link-delay", linkDelay),
                    LinkShaping.nanos("--link-jitter", linkJitter),
                    linkLoss == null ? 0 : LinkShaping.parseLoss("--link-loss", linkLoss),
                    linkRate == null ? 0 : LinkShaping.parseRate("--link-rate", linkRate));
        } catch (UserError e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!isolate) {
            String flag = linkDelay != null ? "--link-delay" : linkJitter != null ? "--link-jitter"
                    : linkLoss != null ? "--link-loss" : linkRate != null ? "--link-rate" : null;
            if (flag != null) {
                throw error(flag + " shapes the links between separate hosts; add --isolate");
            }
            for (FaultSpec fault : faults.faults()) {
                if (fault.kind() == FaultKind.PARTITION) {
                    throw error("--fault '" + fault.text() + "': a partition cuts a node's link, which only exists "
                            + "with --isolate; add --isolate");
                }
            }
            return shaping;
        }
        if (linkJitter != null && linkDelay == null) {
            throw error("--link-jitter varies --link-delay; give --link-delay too");
        }
        if (!system.needsBroker()) {
            throw error("--isolate: " + system.name() + " runs inside this JVM, there are no hosts to separate");
        }
        if (target.url != null) {
            throw error("--isolate puts the brokers the suite starts on hosts of their own; it does not apply to --url");
        }
        return shaping;
    }

    /** True in the runner that must make the hosts and run itself inside them; false inside, or without --isolate. */
    boolean makesHosts() {
        return isolate && IsolatedHosts.fromEnvironment().isEmpty();
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
