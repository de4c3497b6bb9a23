package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expands a workload file into cells: every combination of one item per axis (the matrix in
 * file order, first entry outermost, then the cells), with the flags of each layer merged:
 * defaults, then per-system, then the cell's own, then the command line's --set. A later layer
 * overrides an earlier one; maps (broker-prop) are merged key by key. Within the cell's own
 * layer a flag set by two axes is an error: which would win is not obvious. A cell of a command
 * with a warm-up that no layer sets warms up with {@code auto}: until the system has settled.
 */
public final class Expansion {

    private static final String WARMUP = "warmup";

    private Expansion() {
    }

    /** @param overrides flags for every cell from the command line (--set), or empty */
    public static List<Cell> cells(WorkloadFile file, Catalogs catalogs, List<Setting> overrides) {
        List<List<WorkloadFile.Item>> combinations = new ArrayList<>();
        combinations.add(List.of());
        for (WorkloadFile.Axis axis : file.axes()) {
            List<List<WorkloadFile.Item>> next = new ArrayList<>();
            for (List<WorkloadFile.Item> prefix : combinations) {
                for (WorkloadFile.Item item : axis.items()) {
                    List<WorkloadFile.Item> combination = new ArrayList<>(prefix);
                    combination.add(item);
                    next.add(combination);
                }
            }
            combinations = next;
        }
        List<Cell> cells = new ArrayList<>();
        for (List<WorkloadFile.Item> combination : combinations) {
            cells.add(cell(cells.size() + 1, file, combination, catalogs, overrides));
        }
        return cells;
    }

    private static Cell cell(int index, WorkloadFile file, List<WorkloadFile.Item> items, Catalogs catalogs,
                             List<Setting> overrides) {
        String command = file.command();
        Map<String, Setting> own = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>();
        Origin origin = new Origin(file.file());
        for (WorkloadFile.Item item : items) {
            if (item.command() != null) {
                command = item.command();
            }
            for (Setting setting : item.settings()) {
                Setting earlier = own.get(setting.key());
                if (earlier != null) {
                    throw setting.origin().error("'" + setting.key() + "' is also set at " + earlier.origin()
                            + " for the same cell; set it in one place");
                }
                own.put(setting.key(), setting);
            }
            if (!item.label().isEmpty()) {
                labels.add(item.label());
            }
            origin = item.origin();
        }
        Map<String, Setting> top = new LinkedHashMap<>();
        overrides.forEach(s -> top.put(s.key(), s));
        String system = systemOf(top, own, file.defaults());

        Map<String, Setting> merged = new LinkedHashMap<>();
        Setting systemSetting = top.containsKey("system") ? top.get("system") : own.containsKey("system")
                ? own.get("system") : find(file.defaults(), "system");
        if (systemSetting != null) {
            merged.put("system", systemSetting);
        }
        file.defaults().forEach(s -> merge(merged, s));
        file.perSystem().getOrDefault(system, List.of()).forEach(s -> merge(merged, s));
        own.values().forEach(s -> merge(merged, s));
        top.values().forEach(s -> merge(merged, s));

        FlagCatalog catalog = catalogs.of(command);
        // a rate schedule's warm-up runs at its first rate for a fixed time: the e2e default then
        if (catalog.has(WARMUP) && !merged.containsKey(WARMUP) && !merged.containsKey("rate-schedule")) {
            // a fresh broker per cell may take seconds to settle: a cell warms up until it has
            merged.put(WARMUP, new Setting(WARMUP, new FlagValue.Scalar(WarmupSpec.AUTO, FlagValue.Type.TEXT),
                    new Origin("the default warm-up of workload cells")));
        }
        merged.values().forEach(catalog::check);
        String label = labels.isEmpty() ? file.name() : String.join(" ", labels);
        return new Cell(index, label, command, new ArrayList<>(merged.values()), origin);
    }

    private static String systemOf(Map<String, Setting> top, Map<String, Setting> own, List<Setting> defaults) {
        Setting system = top.containsKey("system") ? top.get("system") : own.containsKey("system") ? own.get("system")
                : find(defaults, "system");
        if (system == null) {
            return Cell.DEFAULT_SYSTEM;
        }
        if (!(system.value() instanceof FlagValue.Scalar scalar)) {
            throw system.origin().error("'system' must be a single value, got " + system.value().describe());
        }
        return scalar.text();
    }

    private static Setting find(List<Setting> settings, String key) {
        return settings.stream().filter(s -> s.key().equals(key)).findFirst().orElse(null);
    }

    /** Later wins; maps merge, and a plain value given for a map flag (from --set) adds one entry. */
    private static void merge(Map<String, Setting> merged, Setting later) {
        Setting earlier = merged.get(later.key());
        if (earlier != null && earlier.value() instanceof FlagValue.Props props) {
            FlagValue.Props addition = later.value() instanceof FlagValue.Props p ? p : entry(later);
            if (addition != null) {
                merged.put(later.key(), new Setting(later.key(), props.mergedWith(addition), later.origin()));
                return;
            }
        }
        merged.put(later.key(), later);
    }

    /** KEY=VALUE typed on the command line as one map entry, or null if it has no '='. */
    private static FlagValue.Props entry(Setting setting) {
        if (setting.value() instanceof FlagValue.Scalar scalar && scalar.type() == FlagValue.Type.UNTYPED) {
            int eq = scalar.text().indexOf('=');
            if (eq > 0) {
                return new FlagValue.Props(Map.of(scalar.text().substring(0, eq), scalar.text().substring(eq + 1)));
            }
        }
        return null;
    }
}
