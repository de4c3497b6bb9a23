package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.msgbench.core.result.RunResult;

/**
 * A system at one durability setting: what the price-of-safety view compares, and what a line of
 * latency against offered load stands for. Runs belong to the same cell when their system and
 * result.json's {@code durability} (the settings in effect, read back from the broker) are the
 * same, whatever their folders or workload cells are called: the runs at a stated rate, the runs
 * with a power loss and a sweep of the same setting meet in one cell.
 *
 * @param durability as text, in result.json's order; equal maps are equal cells whatever the order
 */
record DurabilityCell(String system, Map<String, String> durability) {

    /** Kafka's "never" for flush.messages and flush.ms, read back as Long.MAX_VALUE. */
    private static final String NEVER = Long.toString(Long.MAX_VALUE);
    /** A value longer than this is a sentence, not a setting's name. */
    private static final int WORDY = 16;

    static DurabilityCell of(RunResult result) {
        Map<String, String> durability = new LinkedHashMap<>();
        if (result.durability() != null) {
            result.durability().forEach((k, v) -> durability.put(k, String.valueOf(v)));
        }
        return new DurabilityCell(result.system(), Collections.unmodifiableMap(durability));
    }

    /**
     * A short name for each cell: its system, and where the system has several cells the
     * durability settings that tell them apart ("kafka replicationFactor=3, flush.messages=1"),
     * each value without its explanation, and those still a sentence left to the tooltip.
     */
    static Map<DurabilityCell, String> labels(List<DurabilityCell> cells) {
        Map<DurabilityCell, String> labels = new LinkedHashMap<>();
        for (DurabilityCell cell : cells) {
            List<DurabilityCell> sameSystem = cells.stream().filter(c -> c.system().equals(cell.system())).distinct().toList();
            List<String> differing = new ArrayList<>();
            List<String> wordy = new ArrayList<>();
            for (Map.Entry<String, String> e : cell.durability().entrySet()) {
                String brief = brief(e.getValue());
                if (sameSystem.stream().anyMatch(other -> !Objects.equals(brief(other.durability().get(e.getKey())), brief))) {
                    (brief.length() > WORDY ? wordy : differing).add(e.getKey() + "=" + brief);
                }
            }
            // a sentence names a setting the short ones usually name too; it is in the tooltip
            List<String> shown = differing.isEmpty() ? wordy : differing;
            labels.put(cell, shown.isEmpty() ? cell.system() : cell.system() + " " + String.join(", ", shown));
        }
        return labels;
    }

    /**
     * A value as a label shows it: without the explanation a system gives beside it ("always (fsync
     * before each PubAck)" is "always", "PubAck: stored by a quorum" is "PubAck"), Kafka's never as never.
     */
    private static String brief(String value) {
        if (value == null) {
            return null;
        }
        if (NEVER.equals(value)) {
            return "never";
        }
        int cut = value.length();
        for (String explanation : List.of(" (", ": ")) {
            int at = value.indexOf(explanation);
            if (at > 0) {
                cut = Math.min(cut, at);
            }
        }
        return value.substring(0, cut);
    }

    /** Every setting, for the table's tooltip. */
    String settings() {
        return durability.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }
}
