package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What differs between the machines and the JVMs of compare's two sides, from their results'
 * {@code environment}. A ratio of two runs means something only when they ran side by side on one
 * machine: the same commands gave Redis' publisher 1.33 of redis-benchmark on one 2-vCPU VM (AMD)
 * and 1.92 on another (Intel), so compare says so rather than letting a CI runner's new hardware
 * pass for a regression or a fix. A different JVM is what a JVM experiment varies on purpose; it
 * is named, not judged.
 */
public final class EnvironmentDifferences {

    /** What makes another machine; results written before cpuModel and clockSource existed lack them. */
    static final List<String> MACHINE = List.of("cpuModel", "cores", "os", "clockSource");
    static final List<String> JVM = List.of("jvm", "jvmFlags", "gc", "maxHeapBytes");

    private EnvironmentDifferences() {
    }

    /** The note lines for BASE's and NEW's environments (one per run of each side); empty when nothing differs. */
    static List<String> lines(List<Map<String, Object>> base, List<Map<String, Object>> next) {
        List<String> lines = new ArrayList<>();
        String machine = differences(MACHINE, base, next);
        if (!machine.isEmpty()) {
            lines.add("note: BASE and NEW ran on different machines (" + machine + "): their figures are not"
                    + " comparable; compare runs made side by side on one machine");
        }
        String jvm = differences(JVM, base, next);
        if (!jvm.isEmpty()) {
            lines.add("note: BASE and NEW ran in different JVMs (" + jvm + ")");
        }
        return lines;
    }

    private static String differences(List<String> keys, List<Map<String, Object>> base, List<Map<String, Object>> next) {
        List<String> parts = new ArrayList<>();
        for (String key : keys) {
            Set<String> b = values(base, key);
            Set<String> n = values(next, key);
            // unknown on either side (an older result) is not a difference
            if (!b.isEmpty() && !n.isEmpty() && !b.equals(n)) {
                parts.add(key + " " + String.join(" or ", b) + " | " + String.join(" or ", n));
            }
        }
        return String.join("; ", parts);
    }

    private static Set<String> values(List<Map<String, Object>> environments, String key) {
        Set<String> values = new LinkedHashSet<>();
        for (Map<String, Object> env : environments) {
            Object value = env == null ? null : env.get(key);
            if (value != null) {
                values.add(String.valueOf(value));
            }
        }
        return values;
    }
}
