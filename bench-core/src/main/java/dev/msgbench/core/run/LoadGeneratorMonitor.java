package dev.msgbench.core.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.cpu.CpuList;

/**
 * The load generator watching itself: CPU and GC time of this JVM over a run, so that a result
 * can say when the tool, not the broker, was the bottleneck: when it used its cores up, spent
 * its time in GC, or took cores the broker needed ({@link CpuContention}).
 */
final class LoadGeneratorMonitor {

    /** Above this share of all cores, the load generator may have been the bottleneck. */
    static final double BUSY_SHARE = 0.9;
    /** The load generator's own reasons for {@code bottleneckSuspected}, and the reason it shares with the broker. */
    static final String BUSY = "its cores busy";
    static final String GC = "GC";
    static final String SHARED = "cores shared with the broker";
    /** Above this share of the run spent in GC, the load generator's pauses distort the tail. */
    static final double GC_SHARE = 0.05;

    private final long startWallNanos;
    private final long startCpuNanos;
    private final long startGcCount;
    private final long startGcMillis;
    private final GcPauses pauses = new GcPauses();
    private final CpuList cpus;
    private final LongSupplier spunNanos;
    private final long startSpunNanos;

    /**
     * @param cpus      the CPUs this JVM was pinned to (--cpus), or null
     * @param spunNanos how long the producers have spun so far ({@link dev.msgbench.core.time.NanoClock#spunNanos})
     */
    LoadGeneratorMonitor(CpuList cpus, LongSupplier spunNanos) {
        this.cpus = cpus;
        this.spunNanos = spunNanos;
        startSpunNanos = spunNanos.getAsLong();
        startWallNanos = System.nanoTime();
        startCpuNanos = processCpuNanos();
        startGcCount = gcCount();
        startGcMillis = gcMillis();
    }

    /**
     * Usage since construction, for result.json's {@code loadGenerator}.
     *
     * @param contention the measured window's CPU use, judged; null where the CPUs were not watched
     */
    Map<String, Object> usage(CpuContention contention) {
        double wallSeconds = Math.max(1e-9, (System.nanoTime() - startWallNanos) / 1e9);
        long cpu = processCpuNanos();
        double cpuSeconds = cpu < 0 ? Double.NaN : (cpu - startCpuNanos) / 1e9;
        int cores = Runtime.getRuntime().availableProcessors();
        long gcMillis = gcMillis() - startGcMillis;
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("wallSeconds", wallSeconds);
        usage.put("cpuSeconds", cpuSeconds);
        usage.put("coresUsed", cpuSeconds / wallSeconds);
        double spunSeconds = (spunNanos.getAsLong() - startSpunNanos) / 1e9;
        usage.put("spunSeconds", spunSeconds);
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
        // spinning yields to any thread of ours waiting for the core: it is time the JVM could have given away
        boolean busy = (cpuSeconds - spunSeconds) / wallSeconds >= BUSY_SHARE * cores;
        boolean gcHeavy = gcMillis / 1e3 >= GC_SHARE * wallSeconds;
        boolean shared = contention != null && contention.generatorDisturbed();
        usage.put("bottleneckSuspected", busy || gcHeavy || shared);
        List<String> why = new ArrayList<>();
        if (busy) {
            why.add(BUSY);
        }
        if (gcHeavy) {
            why.add(GC);
        }
        if (shared) {
            why.add(SHARED);
        }
        usage.put("bottleneckReasons", why);
        return usage;
    }

    /** The warning of a load generator that used its cores up or spent its time in GC; null otherwise. */
    static String warning(Map<String, Object> usage) {
        // sharing cores has warnings of its own, which say with what
        if (!(usage.get("bottleneckReasons") instanceof List<?> why) || !why.contains(BUSY) && !why.contains(GC)) {
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
