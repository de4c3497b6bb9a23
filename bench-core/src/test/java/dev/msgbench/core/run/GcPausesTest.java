package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The load generator's own collections, as seen through the JVM's GC notifications. */
class GcPausesTest {

    @Test
    void aCollectionIsCountedAndLeavesTheHeapItFound() throws Exception {
        GcPauses pauses = new GcPauses();
        Map<String, Object> heap;
        try {
            System.gc();
            // notifications arrive on a JMX thread, after the collection
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((heap = pauses.heapAfterGc()).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            pauses.stop();
        }

        assertTrue((Long) heap.get("collections") >= 1, heap.toString());
        double last = (Double) heap.get("lastMiB");
        assertTrue(last > 0, heap.toString());
        assertTrue((Double) heap.get("maxMiB") >= last, heap.toString());
        assertEquals(java.util.Set.of("count", "totalMs", "maxMs"), pauses.stop().keySet());
    }
}
