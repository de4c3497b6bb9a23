package dev.msgbench.core.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.time.NanoClock;

/**
 * A full garbage collection between the producers' and the consumers' phases of a
 * consume-after-produce run, and what it did to the heap.
 *
 * <p>Why: producing flat out, G1 grows the heap for the producers (on 2 cores, from 388 MiB to
 * 2.8 GiB over 4 million Kafka records of 100 B). The consumers then allocate in regions this
 * process never touched, and every fresh page costs a page fault and the kernel's zeroing: 37 %
 * of Kafka's consumer thread was in {@code clear_page_erms}, and it read 1.3-1.6 million msg/s
 * where ConsumerPerformance read 1.7-1.8 (M1, 2026-11-25; the figures are in git, commit 6819271
 * of docs/measurements.md). A consumer in a process of its
 * own, as the native tools' and applications' are, does not pay for its producer's heap. After a
 * full collection G1 gives back what it no longer needs, and the consumers' young generation
 * reuses pages it already has.
 *
 * <p>The pause falls between the phases: the publishers are done and the consumers not yet
 * started, so it is in neither rate (the hiccup meter sees it, and this record says how long it
 * was). With {@code -XX:+DisableExplicitGC} nothing is collected, and {@link #collections} says so.
 *
 * @param collections collections the JVM counted meanwhile (0: explicit collections are off)
 */
record HeapBetweenPhases(double seconds, long collections, long usedBeforeBytes, long usedAfterBytes,
                         long committedBeforeBytes, long committedAfterBytes) {

    static HeapBetweenPhases collect(NanoClock clock) {
        MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long collectionsBefore = collectionCount();
        long start = clock.nanoTime();
        System.gc();
        double seconds = (clock.nanoTime() - start) / 1e9;
        MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new HeapBetweenPhases(seconds, collectionCount() - collectionsBefore, before.getUsed(), after.getUsed(),
                before.getCommitted(), after.getCommitted());
    }

    private static long collectionCount() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    /** As result.json's {@code loadGenerator.collectedBetweenPhases} records it. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        m.put("collections", collections);
        m.put("heapUsedMiB", Map.of("before", mebibytes(usedBeforeBytes), "after", mebibytes(usedAfterBytes)));
        m.put("heapCommittedMiB", Map.of("before", mebibytes(committedBeforeBytes), "after", mebibytes(committedAfterBytes)));
        return m;
    }

    private static long mebibytes(long bytes) {
        return Math.round(bytes / 1048576.0);
    }
}
