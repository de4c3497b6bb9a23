package dev.msgbench.cli.isolate;

import java.io.PrintStream;
import java.util.List;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.core.UserError;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.NetHost;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * `broker --isolate --clients N`: the broker on hosts of its own, and N client hosts for load
 * generators that run as processes of their own (the workers of scripts/workers-local --isolate),
 * each told which namespace to run in.
 */
public final class BrokerIsolateOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--isolate",
            description = "Run every broker node on a host of its own (a network namespace joined by a veth link to a "
                    + "bridge), with --clients hosts for the load generators; removed on exit (needs root).")
    boolean isolate;

    @Option(names = "--clients", paramLabel = "N",
            description = "With --isolate: how many client hosts to make, one per load generator (default: 1).")
    Integer clients;

    /** As e2e's: each host's link, the client hosts' too, shapes what the host sends. */
    @Mixin
    LinkOptions links = new LinkOptions();

    /**
     * Refuses --clients and the link flags without --isolate, and --isolate where {@code system}
     * cannot isolate {@code brokers} nodes; returns the links' shaping.
     */
    public LinkShaping check(SystemTarget system, int brokers) {
        if (clients != null && !isolate) {
            throw error("--clients makes client hosts of --isolate; add --isolate");
        }
        String refused = isolate ? system.isolateRefused(brokers) : null;
        if (refused != null) {
            throw error("--isolate: " + refused);
        }
        try {
            return links.shaping(isolate);
        } catch (UserError e) {
            throw error(FlagNames.messageOf(e));
        }
    }

    public int clientHosts() {
        return clients == null ? 1 : clients;
    }

    /** True in the command that must make the hosts and run itself inside them; false inside, or without --isolate. */
    public boolean makesHosts() {
        return isolate && IsolatedHosts.fromEnvironment().isEmpty();
    }

    /**
     * Inside the hosts, after the URL: one line per load generator, "worker I: ip netns exec NS", the
     * prefix that puts worker I on a client host of its own.
     */
    public static void printWorkerPrefixes(PrintStream out) {
        IsolatedHosts.fromEnvironment().ifPresent(hosts -> {
            List<NetHost> clients = hosts.clients();
            for (int index = 0; index < clients.size(); index++) {
                out.println("worker " + index + ": ip netns exec " + clients.get(index).namespace());
            }
        });
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
