package dev.msgbench.core.net;

/**
 * Where a local broker's nodes run: all on loopback in this network namespace (the default), or
 * each in its own host of an isolated run, on that host's address. A command reads the isolated
 * run's hosts where it starts ({@link IsolatedHosts#fromEnvironment}) and passes this down to
 * the launchers and their certificates, so that what a broker listens on and what its certificate
 * names come from one value, and a test can ask for either without setting the environment.
 *
 * @param hosts the isolated run's hosts, or null for loopback
 */
public record Placement(IsolatedHosts hosts) {

    public static final String LOOPBACK_ADDRESS = "127.0.0.1";
    public static final Placement LOOPBACK = new Placement(null);

    public boolean isolated() {
        return hosts != null;
    }

    /** The address node {@code node} (from 1) listens on and is reached at. */
    public String address(int node) {
        return hosts == null ? LOOPBACK_ADDRESS : hosts.node(node).address();
    }

    /** The network namespace node {@code node} runs in, or null for this JVM's. */
    public String namespace(int node) {
        return hosts == null ? null : hosts.node(node).namespace();
    }

    /** Refuses more nodes than the isolated run made hosts for. */
    public void requireNodes(int nodes) {
        if (hosts != null && nodes > hosts.nodes().size()) {
            hosts.node(nodes);
        }
    }
}
