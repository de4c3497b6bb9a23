package dev.msgbench.core.cpu;

import java.util.List;
import java.util.Optional;

/**
 * The CPUs the load generator and the local broker may run on, as the kernel allows them: what
 * decides whether the two compete for cores.
 *
 * @param generator this JVM's CPUs
 * @param broker    every CPU any node of the local broker may use; null without a local broker
 *                  (another host's, or one this run did not start, whose CPUs it cannot know)
 */
public record CpuPlacement(CpuList generator, CpuList broker) {

    /**
     * This JVM's CPUs now, and those of the broker's nodes (null or empty: no local broker); null
     * where the kernel does not say ({@code /proc/self/status} without {@code Cpus_allowed_list}).
     */
    public static CpuPlacement of(List<Long> brokerNodePids) {
        Optional<CpuList> generator = CpuAffinity.allowed(ProcessHandle.current().pid());
        if (generator.isEmpty()) {
            return null;
        }
        CpuList broker = null;
        for (long pid : brokerNodePids == null ? List.<Long>of() : brokerNodePids) {
            Optional<CpuList> node = CpuAffinity.allowed(pid);
            if (node.isPresent()) {
                broker = broker == null ? node.get() : broker.union(node.get());
            }
        }
        return new CpuPlacement(generator.get(), broker);
    }

    /** The CPUs both may run on; null when they are apart or there is no local broker. */
    public CpuList shared() {
        return broker == null ? null : generator.sharedWith(broker);
    }

    /** The CPUs either may run on. */
    public CpuList both() {
        return broker == null ? generator : generator.union(broker);
    }
}
