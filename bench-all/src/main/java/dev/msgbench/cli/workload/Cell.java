package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * One invocation of a command with flags: what a workload file expands into.
 *
 * @param index    1-based, in the order cells run
 * @param settings the flags, checked against the command's; {@code system} first
 * @param origin   where the cell was written (its item in cells, or the file)
 */
public record Cell(int index, String label, String command, List<Setting> settings, Origin origin) {

    public static final String DEFAULT_SYSTEM = "kafka";

    public Cell {
        settings = List.copyOf(settings);
    }

    public Setting setting(String key) {
        for (Setting setting : settings) {
            if (setting.key().equals(key)) {
                return setting;
            }
        }
        return null;
    }

    /** The value of --system; the command's default when the cell does not set it. */
    public String system() {
        Setting system = setting("system");
        return system == null ? DEFAULT_SYSTEM : ((FlagValue.Scalar) system.value()).text();
    }

    public Cell withSettings(List<Setting> replaced) {
        return new Cell(index, label, command, replaced, origin);
    }

    /** The command-line arguments: the command, then every flag. */
    public List<String> args(FlagCatalog catalog) {
        List<String> args = new ArrayList<>();
        args.add(command);
        for (Setting setting : settings) {
            args.addAll(catalog.args(setting));
        }
        return args;
    }
}
