package dev.msgbench.core.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a run's system kept the promise its durability settings made, in words: "acks=all, RF
 * 3, min.insync.replicas 2: 0 of 33,000 acknowledged messages lost". A message is promised once
 * the system acknowledged it; where nothing was acknowledged (acks=0, core NATS, Redis pub/sub,
 * RabbitMQ without confirms) nothing was promised, and the line says what was lost without
 * calling it a failure.
 */
public final class PromiseLine {

    /** The durability settings the line names, in this order, with how it names them. */
    private static final List<Map.Entry<String, String>> NAMED = List.of(
            Map.entry("acks", "acks="),
            Map.entry("replicationFactor", "RF "),
            Map.entry("min.insync.replicas", "min.insync.replicas "),
            Map.entry("replicas", "replicas "),
            Map.entry("storage", "storage "),
            Map.entry("queueType", "queue "),
            Map.entry("appendfsync", "appendfsync "),
            // MQTT: the delivery handshake, and whether the broker keeps a client's session
            Map.entry("qos", "QoS "),
            Map.entry("session", "session "));

    private PromiseLine() {
    }

    /** Whether the system lost messages it had acknowledged. */
    public static boolean broken(RunResult r) {
        return r.counts().acknowledgedLost() > 0;
    }

    /** The line, or null where nothing was counted as lost (no consumers). */
    public static String of(RunResult r) {
        if (r.workload() != null && r.workload().consumers() == 0) {
            return null;
        }
        Counts c = r.counts();
        String settings = settings(r.durability());
        String early = r.status() == RunStatus.COMPLETE ? "" : " (the run ended early: messages in flight count as lost)";
        if (c.acknowledged() == 0) {
            return String.format(Locale.US, "%s: nothing was acknowledged, so nothing was promised; %,d of %,d messages "
                    + "lost%s", settings, c.unacknowledgedLost(), c.sent(), early);
        }
        String line = String.format(Locale.US, "%s: %,d of %,d acknowledged messages lost", settings, c.acknowledgedLost(),
                c.acknowledged());
        if (broken(r)) {
            line = "PROMISE BROKEN: " + line;
        }
        if (c.unacknowledgedLost() > 0) {
            line += String.format(Locale.US, "; %,d more lost that were never acknowledged (not promised)",
                    c.unacknowledgedLost());
        }
        return line + early;
    }

    private static String settings(Map<String, Object> durability) {
        List<String> named = new ArrayList<>();
        for (Map.Entry<String, String> setting : NAMED) {
            Object value = durability == null ? null : durability.get(setting.getKey());
            if (value != null) {
                named.add(setting.getValue() + value);
            }
        }
        return named.isEmpty() ? "no durability settings reported" : String.join(", ", named);
    }
}
