package dev.msgbench.cli.merge;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.DeliveryLine;

/**
 * Whether folders are the workers of one run: the same settings apart from each worker's own
 * share, and every index from 0 to N-1 exactly once. Percentiles of different workloads added
 * together describe nothing, so a difference is refused, named.
 */
public final class SameRun {

    /** The parts of result.json that all workers of one run share. */
    private static final List<String> COMPARED = List.of("command", "system", "workload", "durability", "settings",
            "versions", "broker", "loadGenerator/worker");
    /** Each worker's own share and name, below the compared parts. */
    private static final Set<String> OWN = Set.of("workload/producers", "workload/consumers", "workload/rateMsgsPerSec",
            "workload/messages", "broker/logs", "loadGenerator/worker/workerIndex", "loadGenerator/worker/firstStream",
            "loadGenerator/worker/runId", "loadGenerator/worker/producers", "loadGenerator/worker/consumers",
            // a thread per producer and a connection per consumer of the worker's own share (workers share nothing)
            "settings/producerThreads", "settings/consumerConnections",
            // what the worker's own client counted of redeliveries (a Kafka share group's delivery count)
            "settings/" + DeliveryLine.KEY + "/" + DeliveryLine.WITNESS,
            // a worker's share of --rate-schedule, and the sizes its own streams drew (the distribution is shared)
            "workload/rateSchedule", "workload/messageSizes/meanBytes", "workload/messageSizes/minBytes",
            "workload/messageSizes/p50Bytes", "workload/messageSizes/p90Bytes", "workload/messageSizes/p99Bytes",
            "workload/messageSizes/maxBytes", "workload/messageSizes/sentBytes", "workload/messageSizes/receivedBytes");

    private SameRun() {
    }

    /** The folders ordered by worker index, or a one-line refusal naming what differs or is missing. */
    static List<WorkerFolder> check(List<WorkerFolder> folders) {
        WorkerFolder first = folders.get(0);
        Map<String, String> reference = settings(first);
        for (WorkerFolder other : folders.subList(1, folders.size())) {
            Map<String, String> theirs = settings(other);
            Set<String> paths = new LinkedHashSet<>(reference.keySet());
            paths.addAll(theirs.keySet());
            for (String path : paths) {
                String a = reference.getOrDefault(path, "(none)");
                String b = theirs.getOrDefault(path, "(none)");
                if (!a.equals(b)) {
                    throw new UserError("merge: the folders are not workers of one run: " + path.replace('/', '.')
                            + " is " + a + " in " + first.dir() + " but " + b + " in " + other.dir());
                }
            }
        }
        Map<Integer, WorkerFolder> byIndex = new TreeMap<>();
        for (WorkerFolder folder : folders) {
            WorkerFolder twice = byIndex.put(folder.index(), folder);
            if (twice != null) {
                throw new UserError("merge: worker " + folder.index() + " is given twice: " + twice.dir() + " and "
                        + folder.dir());
            }
        }
        for (int index = 0; index < first.count(); index++) {
            if (!byIndex.containsKey(index)) {
                throw new UserError("merge: worker " + index + " of " + first.count() + " is missing; give the folders "
                        + "of all " + first.count() + " workers");
            }
        }
        return List.copyOf(byIndex.values());
    }

    /** The compared settings as path = value, each worker's run id written as RUN. */
    private static Map<String, String> settings(WorkerFolder folder) {
        Map<String, String> flat = new LinkedHashMap<>();
        for (String part : COMPARED) {
            flatten(part, folder.tree().at("/" + part), folder.runId(), flat);
        }
        return flat;
    }

    private static void flatten(String path, JsonNode node, String runId, Map<String, String> into) {
        if (OWN.contains(path) || node.isMissingNode()) {
            return;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                flatten(path + "/" + field.getKey(), field.getValue(), runId, into);
            }
        } else {
            String text = node.isTextual() ? node.asText() : node.toString();
            into.put(path, runId.isEmpty() ? text : text.replace(runId, "RUN"));
        }
    }
}
