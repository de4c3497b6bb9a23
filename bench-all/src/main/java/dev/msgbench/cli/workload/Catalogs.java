package dev.msgbench.cli.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * What a workload file is checked against: the flags of each command a cell may run, the
 * systems, and which flag belongs to which system.
 *
 * @param systemHasFlag (system, key) -> whether the key is one of that system's own flags
 */
public record Catalogs(Map<String, FlagCatalog> commands, List<String> systems,
                       BiPredicate<String, String> systemHasFlag) {

    public Catalogs {
        commands = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(commands));
        systems = List.copyOf(systems);
    }

    public FlagCatalog of(String command) {
        return commands.get(command);
    }

    /** Whether any command has this flag: a file may set it in defaults shared by cells of both. */
    boolean anyHas(String key) {
        return commands.values().stream().anyMatch(c -> c.has(key));
    }
}
