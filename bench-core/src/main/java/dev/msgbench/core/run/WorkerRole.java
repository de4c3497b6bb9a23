package dev.msgbench.core.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * This process's part of a run split over several load generators ({@code --workers}): producer
 * streams {@code firstStream} to {@code firstStream + producers - 1} of {@code totalStreams}.
 * Each stream keeps the schedule it would have in one process running all of them, so the workers
 * together send exactly that schedule, and each worker has a run key and destinations of its own,
 * so no worker receives another's messages or takes them for its own.
 *
 * @param recorded what result.json records of the split besides this (totals, the command line)
 */
public record WorkerRole(int index, int count, int firstStream, int totalStreams, Map<String, Object> recorded) {

    public WorkerRole {
        if (count < 1 || index < 0 || index >= count || firstStream < 0 || firstStream >= totalStreams) {
            throw new IllegalArgumentException("worker " + index + " of " + count + ", first stream " + firstStream
                    + " of " + totalStreams);
        }
        recorded = Collections.unmodifiableMap(new LinkedHashMap<>(recorded));
    }

    /**
     * The run key of this worker, from the key all workers drew from the same seed: different for
     * each index (the payload header's run key and stream id then never match another worker's),
     * and never 0.
     */
    int runKey(int sharedKey) {
        int key = sharedKey + index;
        // only one index can hit 0; sharedKey + count is none of the others' keys
        return key != 0 ? key : sharedKey + count;
    }

    /** Appended to the run id that names the run's topics, subjects, queues and streams. */
    String runIdSuffix() {
        return runIdSuffix(index);
    }

    /** Worker {@code index}'s suffix of the run id, also for a responder elsewhere that echoes for that worker. */
    public static String runIdSuffix(int index) {
        return "-w" + index;
    }

    Map<String, Object> describe(String runId) {
        Map<String, Object> worker = new LinkedHashMap<>();
        worker.put("workers", count);
        worker.put("workerIndex", index);
        worker.put("firstStream", firstStream);
        worker.put("totalStreams", totalStreams);
        worker.put("runId", runId);
        worker.putAll(recorded);
        return worker;
    }
}
