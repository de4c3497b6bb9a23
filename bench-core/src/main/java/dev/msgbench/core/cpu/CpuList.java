package dev.msgbench.core.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A set of CPU numbers in the list syntax of taskset, cpusets and {@code /proc/PID/status}:
 * {@code 0}, {@code 0-1}, {@code 0,2-3}. Immutable; {@link #toString()} gives the canonical form
 * (sorted, ranges merged), which is what the kernel prints as {@code Cpus_allowed_list}.
 *
 * @param cpus the CPU numbers, sorted, without duplicates, never empty
 */
public record CpuList(List<Integer> cpus) {

    /** The kernel's own limit (NR_CPUS) is far below this; it only keeps a typo from allocating. */
    static final int MAX_CPU = 1 << 16;
    private static final Pattern ITEM = Pattern.compile("(\\d{1,6})(?:-(\\d{1,6}))?");
    static final String EXAMPLES = "examples: 0, 0-1, 0,2";

    public CpuList {
        cpus = List.copyOf(new TreeSet<>(cpus));
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("a CPU list holds at least one CPU");
        }
        if (cpus.get(0) < 0 || cpus.get(cpus.size() - 1) > MAX_CPU) {
            throw new IllegalArgumentException("CPU numbers are 0 to " + MAX_CPU + ", got " + cpus);
        }
    }

    /**
     * Parses the list syntax: items separated by commas, each a CPU number or an ascending range
     * {@code FIRST-LAST}. No spaces, no strides.
     *
     * @throws IllegalArgumentException naming the text and the syntax
     */
    public static CpuList parse(String text) {
        List<Integer> cpus = new ArrayList<>();
        String trimmed = text == null ? "" : text.trim();
        for (String item : trimmed.split(",", -1)) {
            Matcher m = ITEM.matcher(item);
            if (!m.matches()) {
                throw notAList(text);
            }
            int first = Integer.parseInt(m.group(1));
            int last = m.group(2) == null ? first : Integer.parseInt(m.group(2));
            if (last < first || last > MAX_CPU) {
                throw notAList(text);
            }
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return new CpuList(cpus);
    }

    private static IllegalArgumentException notAList(String text) {
        return new IllegalArgumentException("'" + text + "' is not a CPU list (" + EXAMPLES + ")");
    }

    public boolean contains(int cpu) {
        return cpus.contains(cpu);
    }

    /** The CPUs of this list that {@code other} lacks, in order. */
    public List<Integer> missingFrom(CpuList other) {
        List<Integer> missing = new ArrayList<>();
        for (int cpu : cpus) {
            if (!other.contains(cpu)) {
                missing.add(cpu);
            }
        }
        return missing;
    }

    /** The CPUs in both lists, or null when they have none in common. */
    public CpuList sharedWith(CpuList other) {
        List<Integer> both = new ArrayList<>();
        for (int cpu : cpus) {
            if (other.contains(cpu)) {
                both.add(cpu);
            }
        }
        return both.isEmpty() ? null : new CpuList(both);
    }

    /** The CPUs in either list. */
    public CpuList union(CpuList other) {
        List<Integer> all = new ArrayList<>(cpus);
        all.addAll(other.cpus);
        return new CpuList(all);
    }

    public int size() {
        return cpus.size();
    }

    /** The canonical list syntax, e.g. {@code 0-2,5}: what taskset takes and the kernel prints. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < cpus.size()) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(cpus.get(i));
            if (j > i) {
                text.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
