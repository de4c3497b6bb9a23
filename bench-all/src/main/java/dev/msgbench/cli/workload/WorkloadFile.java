package dev.msgbench.cli.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload file as read, before its matrix is expanded into cells.
 *
 * @param file        the path as the user wrote it
 * @param command     the command of every cell that does not name its own
 * @param defaults    flags of every cell, overridden by per-system flags and by the cell's own
 * @param axes        the matrix, then the cells: every combination of one item per axis is a cell
 * @param perSystem   flags added to the cells of one system
 * @param columns     ids of the summary table's columns ({@link Columns})
 * @param warnings    parts of the file that were read but ignored, said once before the run
 */
public record WorkloadFile(String file, String name, String source, String description, String command,
                           int repetitions, List<Setting> defaults, List<Axis> axes,
                           Map<String, List<Setting>> perSystem, List<String> columns, List<String> warnings) {

    /** The source of every OpenMessaging Benchmark file. */
    public static final String OMB_SOURCE = "OpenMessaging Benchmark workload";
    /** The source of an OpenMessaging Benchmark file with producerRate 0: OMB's search for the highest rate, a sweep here. */
    public static final String OMB_RATE_SEARCH_SOURCE = "OpenMessaging Benchmark workload, producerRate 0: a rate search";

    public WorkloadFile {
        defaults = List.copyOf(defaults);
        axes = List.copyOf(axes);
        perSystem = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(perSystem));
        columns = List.copyOf(columns);
        warnings = List.copyOf(warnings);
    }

    /** Whether this came from an OpenMessaging Benchmark file, which names no system of its own. */
    public boolean fromOmb() {
        return OMB_SOURCE.equals(source) || ombRateSearch();
    }

    /** This OpenMessaging Benchmark workload with a driver file's flags added to every cell, and its warnings. */
    public WorkloadFile withDriver(OmbDriver.Read driver) {
        List<Setting> all = new java.util.ArrayList<>(defaults);
        all.addAll(driver.settings());
        List<String> said = new java.util.ArrayList<>(warnings);
        said.addAll(driver.warnings());
        return new WorkloadFile(file, name, source, description, command, repetitions, all, axes, perSystem, columns,
                said);
    }

    /** Whether this is an OpenMessaging Benchmark file whose producerRate is 0, run as a sweep. */
    public boolean ombRateSearch() {
        return OMB_RATE_SEARCH_SOURCE.equals(source);
    }

    /** One dimension of the matrix; {@code cells} is the last one. */
    public record Axis(String name, List<Item> items) {
        public Axis {
            items = List.copyOf(items);
        }
    }

    /**
     * One value of an axis: the flags it sets and the words it adds to the cell's label.
     *
     * @param command the command of the cells with this item, or null for the file's
     */
    public record Item(String label, String command, List<Setting> settings, Origin origin) {
        public Item {
            settings = List.copyOf(settings);
        }
    }
}
