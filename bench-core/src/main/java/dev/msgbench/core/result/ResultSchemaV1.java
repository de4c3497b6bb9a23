package dev.msgbench.core.result;

import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads result.json of schema version 1 (msgbench 0.1), whose counts, rates and latencies were
 * flat fields, into today's {@link RunResult}. Version 1 counted loss as one number: its lost
 * messages are read as unacknowledged (it cannot say which were acknowledged), with a warning
 * that says so, so no old result reads as a kept promise it never checked.
 */
final class ResultSchemaV1 {

    static final int VERSION = 1;

    private ResultSchemaV1() {
    }

    /** {@code v1} rewritten, in place, to today's layout; its schemaVersion stays 1. */
    static ObjectNode upgrade(ObjectNode v1) {
        long lost = v1.path("lost").asLong();
        ObjectNode counts = v1.objectNode();
        move(v1, counts, "sent", "sent");
        move(v1, counts, "acknowledged", "acknowledged");
        move(v1, counts, "sendErrors", "sendErrors");
        move(v1, counts, "received", "received");
        v1.remove("lost");
        counts.put("acknowledgedLost", 0L);
        counts.put("unacknowledgedLost", lost);
        for (String name : new String[] {"duplicated", "reordered", "late", "unsent", "foreign", "measuredSent"}) {
            move(v1, counts, name, name);
        }
        ObjectNode rates = v1.objectNode();
        move(v1, rates, "targetRate", "targetMsgsPerSec");
        move(v1, rates, "achievedRate", "achievedMsgsPerSec");
        move(v1, rates, "receivedRate", "receivedMsgsPerSec");
        move(v1, rates, "targetRateMissed", "targetMissed");
        move(v1, rates, "maxBehindScheduleMs", "maxBehindScheduleMs");
        ObjectNode latencies = v1.objectNode();
        move(v1, latencies, "latencyMs", "latency");
        move(v1, latencies, "serviceMs", "service");
        move(v1, latencies, "sendDelayMs", "sendDelay");
        move(v1, latencies, "ackMs", "ack");
        v1.set("counts", counts);
        v1.set("rates", rates);
        v1.set("latenciesMs", latencies);
        if (lost > 0) {
            ArrayNode warnings = v1.withArrayProperty("warnings");
            warnings.add(String.format(Locale.US, "schema 1 result: its %,d lost messages are not split into acknowledged "
                    + "and unacknowledged; re-run to tell a broken promise from an allowed loss", lost));
        }
        return v1;
    }

    private static void move(ObjectNode from, ObjectNode to, String oldName, String newName) {
        if (from.has(oldName)) {
            to.set(newName, from.remove(oldName));
        }
    }
}
