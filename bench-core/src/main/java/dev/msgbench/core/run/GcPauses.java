package dev.msgbench.core.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * The load generator's GC pauses during a run, one notification per collection: count, total
 * and longest pause. The MXBeans' cumulative counters give only totals; the longest pause is
 * what explains a latency spike.
 *
 * <p>Collectors that run concurrently report their cycles on beans of their own ("ZGC Cycles",
 * "ZGC Major Cycles", "Shenandoah Cycles"); those cycles do not stop our threads, so they are
 * left out and only the pause beans count. ("G1 Concurrent GC", from JDK 20 on, reports G1's
 * remark and cleanup pauses despite its name: it counts.)
 *
 * <p>The bytes collected per notification, plus the heap's growth, estimate how much the load
 * generator allocated: the tuning table compares allocation rates between flag sets.
 */
final class GcPauses implements NotificationListener {

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private long count;
    private long totalMillis;
    private long maxMillis;
    private long collectedBytes;
    private final long startHeapBytes = heapUsedBytes();
    /** What stays after a collection: a load generator that keeps something per message grows it with the run. */
    private final Set<String> heapPools = new HashSet<>();
    private long collections;
    private long firstHeapAfterGc;
    private long lastHeapAfterGc;
    private long maxHeapAfterGc;

    GcPauses() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                NotificationEmitter emitter = (NotificationEmitter) gc;
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    static boolean isConcurrent(String collectorName) {
        return collectorName.contains("Cycles");
    }

    @Override
    public synchronized void handleNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long before = 0;
        long after = 0;
        for (MemoryUsage usage : info.getGcInfo().getMemoryUsageBeforeGc().values()) {
            before += usage.getUsed();
        }
        for (MemoryUsage usage : info.getGcInfo().getMemoryUsageAfterGc().values()) {
            after += usage.getUsed();
        }
        collectedBytes += Math.max(0, before - after);
        long heapAfter = 0;
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                heapAfter += pool.getValue().getUsed();
            }
        }
        if (collections++ == 0) {
            firstHeapAfterGc = heapAfter;
        }
        lastHeapAfterGc = heapAfter;
        maxHeapAfterGc = Math.max(maxHeapAfterGc, heapAfter);
        if (isConcurrent(info.getGcName())) {
            return;
        }
        long millis = info.getGcInfo().getDuration();
        count++;
        totalMillis += millis;
        maxMillis = Math.max(maxMillis, millis);
    }

    /** Bytes allocated since construction, estimated from what the collectors freed and the heap's growth. */
    synchronized long allocatedBytes() {
        return Math.max(0, collectedBytes + heapUsedBytes() - startHeapBytes);
    }

    private static long heapUsedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Stops listening and returns {count, totalMs, maxMs} for result.json. */
    synchronized Map<String, Object> stop() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException e) {
                throw new IllegalStateException("GC listener vanished from " + emitter, e);
            }
        }
        emitters.clear();
        Map<String, Object> pauses = new LinkedHashMap<>();
        pauses.put("count", count);
        pauses.put("totalMs", totalMillis);
        pauses.put("maxMs", maxMillis);
        return pauses;
    }

    /** Heap in use after the run's first, last and fullest collection, in MiB; empty without a collection. */
    synchronized Map<String, Object> heapAfterGc() {
        Map<String, Object> heap = new LinkedHashMap<>();
        if (collections > 0) {
            heap.put("collections", collections);
            heap.put("firstMiB", firstHeapAfterGc / 1048576.0);
            heap.put("lastMiB", lastHeapAfterGc / 1048576.0);
            heap.put("maxMiB", maxHeapAfterGc / 1048576.0);
        }
        return heap;
    }
}
