package dev.msgbench.core.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;

/**
 * The load generator watching itself: CPU and GC time of this JVM over a run, so that a result
 * can say when the tool, not the broker, was the bottleneck.
 */
final class LoadGeneratorMonitor {

    /** Above this share of all cores, the load generator may have been the bottleneck. */
    static final double BUSY_SHARE = 0.9;
    /** Above this share of the run spent in GC, the load generator's pauses distort the tail. */
    static final double GC_SHARE = 0.05;

    private final long startWallNanos;
    private final long startCpuNanos;
    private final long startGcCount;
    private final long startGcMillis;
    private final GcPauses pauses = new GcPauses();
    private final CpuList cpus;

    /** @param cpus the CPUs this JVM was pinned to (--cpus), or null */
    LoadGeneratorMonitor(CpuList cpus) {
        this.cpus = cpus;
        startWallNanos = System.nanoTime();
        startCpuNanos = processCpuNanos();
        startGcCount = gcCount();
        startGcMillis = gcMillis();
    }

    /** Usage since construction, for result.json's {@code loadGenerator}. */
    Map<String, Object> usage() {
        double wallSeconds = Math.max(1e-9, (System.nanoTime() - startWallNanos) / 1e9);
        long cpu = processCpuNanos();
        double cpuSeconds = cpu < 0 ? Double.NaN : (cpu - startCpuNanos) / 1e9;
        int cores = Runtime.getRuntime().availableProcessors();
        long gcMillis = gcMillis() - startGcMillis;
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("wallSeconds", wallSeconds);
        usage.put("cpuSeconds", cpuSeconds);
        usage.put("coresUsed", cpuSeconds / wallSeconds);
        usage.put("cores", cores);
        usage.put("cpus", cpus == null ? null : cpus.toString());
        // what the kernel allows now, pinned or not: the figure that explains `cores`
        usage.put("cpusAllowed", CpuAffinity.allowedForThisJvm().toString());
        usage.put("gcCount", gcCount() - startGcCount);
        usage.put("gcMillis", gcMillis);
        long allocated = pauses.allocatedBytes();
        usage.put("gcPauses", pauses.stop());
        usage.put("heapAfterGc", pauses.heapAfterGc());
        usage.put("allocatedMiB", allocated / 1048576.0);
        usage.put("allocMiBPerSec", allocated / 1048576.0 / wallSeconds);
        boolean busy = cpuSeconds / wallSeconds >= BUSY_SHARE * cores;
        boolean gcHeavy = gcMillis / 1e3 >= GC_SHARE * wallSeconds;
        usage.put("bottleneckSuspected", busy || gcHeavy);
        return usage;
    }

    static String warning(Map<String, Object> usage) {
        if (!Boolean.TRUE.equals(usage.get("bottleneckSuspected"))) {
            return null;
        }
        return String.format(java.util.Locale.US,
                "the load generator may have been the bottleneck: it used %.2f of %d cores and spent %d ms in GC over %.1f s",
                (Double) usage.get("coresUsed"), (Integer) usage.get("cores"), (Long) usage.get("gcMillis"),
                (Double) usage.get("wallSeconds"));
    }

    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    private static long gcCount() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionCount());
        }
        return total;
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }
}
