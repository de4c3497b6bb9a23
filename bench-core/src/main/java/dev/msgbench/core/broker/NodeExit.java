package dev.msgbench.core.broker;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * How a node of a local broker ended, for the message of a client that lost its connection: a
 * client that names the broker's death must not guess another cause (a subscriber cut off for
 * falling behind). Handed to an adapter as a plain {@link Supplier}, since the driver API uses JDK
 * types only.
 */
public final class NodeExit {

    /**
     * A client sees its connection close as the kernel ends the process, a moment before the JVM
     * has collected the exit status: that long is waited for a node to be seen ended.
     */
    static final Duration SETTLE = Duration.ofSeconds(1);
    private static final long POLL_MILLIS = 10;

    private NodeExit() {
    }

    /**
     * "node 1 killed by signal 9 (SIGKILL)", or null while the node runs (after waiting up to
     * {@link #SETTLE} for it to end) or when {@code broker} is null (a broker given with --url).
     */
    public static Supplier<String> of(LocalBroker broker, int node) {
        if (broker == null) {
            return () -> null;
        }
        return () -> {
            long deadline = System.nanoTime() + SETTLE.toNanos();
            String exit;
            while ((exit = broker.exitDescription(node)) == null && System.nanoTime() - deadline < 0) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            return exit == null ? null : "node " + node + " " + exit;
        };
    }
}
