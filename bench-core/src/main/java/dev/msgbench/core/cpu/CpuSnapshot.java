package dev.msgbench.core.cpu;

import java.util.List;

/**
 * What the machine and the processes of a run had used of the CPUs at one moment, each counted
 * since it started; two snapshots give the use in between ({@link CpuUsage#between}).
 *
 * @param nanoTime          when, on {@link System#nanoTime()}
 * @param machine           every CPU's ticks
 * @param generatorCpuNanos this JVM's CPU time, all threads (the load generator)
 * @param brokerNodes       each node of the local broker, node 1 first; null without a local broker
 * @param brokerHelperTicks the local broker's processes that are not nodes (RabbitMQ's epmd), added up
 * @param spunNanos         how long the producers spun before their sends ({@link dev.msgbench.core.time.NanoClock#spunNanos})
 */
public record CpuSnapshot(long nanoTime, CpuTimes machine, long generatorCpuNanos, List<NodeTicks> brokerNodes,
                          long brokerHelperTicks, long spunNanos) {

    /**
     * One node's process tree.
     *
     * @param pid   the node's process now (a restarted node has a new one)
     * @param ticks its CPU time and that of what it started, {@link ProcessTicks#GONE} while it is down
     */
    public record NodeTicks(long pid, long ticks) {
    }

    public CpuSnapshot {
        brokerNodes = brokerNodes == null ? null : List.copyOf(brokerNodes);
    }
}
