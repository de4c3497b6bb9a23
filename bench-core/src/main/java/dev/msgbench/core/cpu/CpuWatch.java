package dev.msgbench.core.cpu;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Where a run's CPU figures come from: the machine, this JVM (the load generator) and the
 * processes of the local broker, read from {@code /proc} once a second by the run's monitor.
 */
public interface CpuWatch {

    /** Watches nothing: runs tested on a fake clock, whose figures must not depend on the machine. */
    CpuWatch NONE = new CpuWatch() {
        @Override
        public CpuSnapshot snapshot() {
            return null;
        }

        @Override
        public CpuPlacement placement() {
            return null;
        }
    };

    /** Now; null when nothing is watched. */
    CpuSnapshot snapshot();

    /** The CPUs the load generator and the local broker may run on; null when nothing is watched. */
    CpuPlacement placement();

    /** The processes of a local broker, as they are now: a node restarted by a fault has a new pid. */
    interface BrokerPids {
        /** Node 1 first. */
        List<Long> nodes();

        /** Processes the broker needs that are not nodes (RabbitMQ's epmd). */
        List<Long> helpers();
    }

    /**
     * This machine and this JVM, and the local broker's processes when {@code broker} is not null.
     *
     * @param spunNanos how long the producers have spun so far (the run's clock)
     */
    static CpuWatch ofThisMachine(BrokerPids broker, LongSupplier spunNanos) {
        return new CpuWatch() {
            @Override
            public CpuSnapshot snapshot() {
                long now = System.nanoTime();
                CpuTimes machine = CpuTimes.read();
                long generator = generatorCpuNanos();
                List<CpuSnapshot.NodeTicks> nodes = null;
                long helpers = 0;
                if (broker != null) {
                    nodes = new ArrayList<>();
                    for (long pid : broker.nodes()) {
                        nodes.add(new CpuSnapshot.NodeTicks(pid, ProcessTicks.ofTree(pid)));
                    }
                    for (long pid : broker.helpers()) {
                        helpers += Math.max(0, ProcessTicks.of(pid));
                    }
                }
                return new CpuSnapshot(now, machine, generator, nodes, helpers, spunNanos.getAsLong());
            }

            @Override
            public CpuPlacement placement() {
                return CpuPlacement.of(broker == null ? null : broker.nodes());
            }
        };
    }

    private static long generatorCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
