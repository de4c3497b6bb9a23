package dev.msgbench.core.net;

/**
 * Where a local broker's nodes run: all on loopback in this network namespace (the default), or
 * each in its own host of an isolated run, on that host's address.
 *
 * @param hosts the isolated run's hosts, or null for loopback
 */
public record Placement(IsolatedHosts hosts) {

    public static final String LOOPBACK_ADDRESS = "127.0.0.1";
    public static final Placement LOOPBACK = new Placement(null);

    /** The hosts of this run when it runs inside an isolated client host ({@link IsolatedHosts#ENV}), else loopback. */
    public static Placement current() {
        return IsolatedHosts.fromEnvironment().map(Placement::new).orElse(LOOPBACK);
    }

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
