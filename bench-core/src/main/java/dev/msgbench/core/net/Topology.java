package dev.msgbench.core.net;

import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.CleanupRegistry;

/**
 * Separate hosts on one machine (--isolate): a "switch" network namespace holding a bridge, and
 * one namespace per host (the client, broker nodes 1..N), each joined to the bridge by a veth
 * pair whose host end has an address on a private /24 and sends through the links' shaping.
 * Built with iproute2; {@link #close} deletes every namespace it made, which removes the bridge
 * and the links with them, also on Ctrl+C (it is in the {@link CleanupRegistry}).
 */
public final class Topology implements AutoCloseable {

    static final String BRIDGE = "br0";
    /**
     * The host end's name inside each host: hosts are namespaces of their own, so it is the same
     * everywhere; public for a server that binds by interface name (a bookie's listeningInterface).
     */
    public static final String HOST_LINK = "eth0";
    static final int CLIENT_OCTET = 100;
    static final int MAX_NODES = 99;
    /** Client hosts c1..cN take .101 upwards, clear of the nodes' .1 to .99 and the single client's .100. */
    static final int MAX_CLIENTS = 99;

    private final IsolatedHosts hosts;
    private final List<String> made;
    private CleanupRegistry.Registration registration;
    private boolean closed;

    private Topology(IsolatedHosts hosts, List<String> made) {
        this.hosts = hosts;
        this.made = made;
    }

    /**
     * Reaps what dead runs left, then builds the switch, the client host c and {@code nodes} node hosts.
     *
     * @throws UserError when not root ("isolate needs root"), when the shaping needs netem and the
     *                   kernel has none, or when an {@code ip} or {@code tc} command fails; whatever was
     *                   made is removed first
     */
    public static Topology create(int nodes, LinkShaping shaping) {
        return create(0, nodes, shaping);
    }

    /**
     * As {@link #create(int, LinkShaping)}, with {@code clients} client hosts c1..cN on .101 upwards
     * (separate load generators, each on a host of its own) instead of the one client host c on .100.
     */
    public static Topology withClients(int clients, int nodes, LinkShaping shaping) {
        if (clients < 1 || clients > MAX_CLIENTS) {
            throw new UserError(Phrase.of("%s takes 1 to %d client hosts, got %d", Setting.CLIENTS, MAX_CLIENTS, clients));
        }
        return create(clients, nodes, shaping);
    }

    /** @param clients 0 for the one client host c, else that many numbered client hosts */
    private static Topology create(int clients, int nodes, LinkShaping shaping) {
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new UserError(Phrase.of("%s takes 1 to %d broker nodes, got %d", Setting.ISOLATE, MAX_NODES, nodes));
        }
        String prefix = NamespaceNames.prefixOf(ProcessHandle.current());
        String switchNs = prefix + "sw";
        NetCommand.Result first = NetCommand.attempt("ip", "netns", "add", switchNs);
        if (!first.ok()) {
            throw new UserError(Phrase.of("%s needs root (network namespaces): %s", Setting.ISOLATE, first.failure()));
        }
        List<String> made = new ArrayList<>(List.of(switchNs));
        Topology topology = null;
        try {
            NamespaceReaper.reap();
            int subnet = Subnets.free();
            String net = "10.77." + subnet + ".";
            NetCommand.run("ip", "-n", switchNs, "link", "set", "lo", "up");
            NetCommand.run("ip", "-n", switchNs, "link", "add", BRIDGE, "type", "bridge");
            NetCommand.run("ip", "-n", switchNs, "link", "set", BRIDGE, "up");
            Builder builder = new Builder(switchNs, shaping, made);
            List<NetHost> clientHosts = new ArrayList<>();
            if (clients == 0) {
                clientHosts.add(builder.host("client", prefix + "c", net + CLIENT_OCTET, "pc"));
            }
            for (int client = 1; client <= clients; client++) {
                clientHosts.add(builder.host("client " + client, prefix + "c" + client, net + (CLIENT_OCTET + client),
                        "pc" + client));
            }
            builder.checkShaping(clientHosts.get(0));
            clientHosts.subList(1, clientHosts.size()).forEach(builder::shape);
            List<NetHost> nodeHosts = new ArrayList<>();
            for (int node = 1; node <= nodes; node++) {
                NetHost host = builder.host("node " + node, prefix + "n" + node, net + node, "p" + node);
                builder.shape(host);
                nodeHosts.add(host);
            }
            topology = new Topology(new IsolatedHosts(switchNs, net + "0/24", clientHosts, nodeHosts, shaping), made);
            Topology registered = topology;
            topology.registration = CleanupRegistry.register("the namespaces of the isolated hosts", registered::close);
            return topology;
        } catch (RuntimeException | Error e) {
            if (topology == null) {
                topology = new Topology(null, made);
            }
            try {
                topology.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    public IsolatedHosts hosts() {
        return hosts;
    }

    /** Cuts node {@code node}'s link at the switch (a partition) or mends it. */
    public static void setLink(IsolatedHosts hosts, int node, boolean up) {
        NetHost host = hosts.node(node);
        NetCommand.run("ip", "-n", hosts.switchNamespace(), "link", "set", host.switchPort(), up ? "up" : "down");
    }

    /** Deletes every namespace it made, the switch last; once. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (int i = made.size() - 1; i >= 0; i--) {
            NetCommand.Result result = NetCommand.attempt("ip", "netns", "delete", made.get(i));
            if (!result.ok()) {
                UserError e = new UserError("cannot remove namespace " + made.get(i) + ": " + result.failure());
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (registration != null) {
            registration.deregister();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Makes hosts one by one, recording each namespace as soon as it exists so that a failure removes it. */
    private static final class Builder {
        private final String switchNs;
        private final LinkShaping shaping;
        private final List<String> made;

        Builder(String switchNs, LinkShaping shaping, List<String> made) {
            this.switchNs = switchNs;
            this.shaping = shaping;
            this.made = made;
        }

        NetHost host(String role, String namespace, String address, String switchPort) {
            NetCommand.run("ip", "netns", "add", namespace);
            made.add(namespace);
            NetCommand.run("ip", "-n", switchNs, "link", "add", switchPort, "type", "veth",
                    "peer", "name", HOST_LINK, "netns", namespace);
            NetCommand.run("ip", "-n", switchNs, "link", "set", switchPort, "master", BRIDGE);
            NetCommand.run("ip", "-n", switchNs, "link", "set", switchPort, "up");
            NetCommand.run("ip", "-n", namespace, "link", "set", "lo", "up");
            NetCommand.run("ip", "-n", namespace, "addr", "add", address + "/24", "dev", HOST_LINK);
            NetCommand.run("ip", "-n", namespace, "link", "set", HOST_LINK, "up");
            return new NetHost(role, namespace, address, switchPort);
        }

        /**
         * The first link tells whether the kernel can shape as asked: delay, jitter and loss need
         * netem, which not every kernel has (CONFIG_NET_SCH_NETEM); a rate alone uses tbf. Shapes
         * that link.
         */
        void checkShaping(NetHost first) {
            if (!shaping.shapes()) {
                return;
            }
            NetCommand.Result result = NetCommand.attempt(tcAdd(first, shaping.needsNetem()));
            if (!result.ok()) {
                if (shaping.needsNetem() && result.stderr().contains("unknown")) {
                    throw new UserError(Phrase.of("%s needs the kernel's netem qdisc (sch_netem), which this kernel "
                            + "does not have; run without %s, %s and %s (%s works without netem)",
                            shaping.firstNetemSetting(), Setting.LINK_DELAY, Setting.LINK_JITTER, Setting.LINK_LOSS,
                            Setting.LINK_RATE));
                }
                throw new UserError(result.failure());
            }
        }

        void shape(NetHost host) {
            if (shaping.shapes()) {
                NetCommand.run(tcAdd(host, shaping.needsNetem()));
            }
        }

        private String[] tcAdd(NetHost host, boolean netem) {
            List<String> argv = new ArrayList<>(List.of("tc", "-n", host.namespace(), "qdisc", "add", "dev", HOST_LINK,
                    "root"));
            argv.addAll(shaping.qdisc(netem));
            return argv.toArray(new String[0]);
        }
    }
}
