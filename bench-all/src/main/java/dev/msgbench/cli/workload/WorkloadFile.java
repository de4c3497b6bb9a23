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
 * @param repetitions runs of each cell back to back
 * @param repeats     runs of each cell interleaved with the other cells', for their spread and verdicts
 * @param baseline    the cell every other is judged against, or null
 */
public record WorkloadFile(String file, String name, String source, String description, String command,
                           int repetitions, List<Setting> defaults, List<Axis> axes,
                           Map<String, List<Setting>> perSystem, List<String> columns, List<String> warnings,
                           int repeats, Baseline baseline) {

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
                said, repeats, baseline);
    }

    /** This workload with the repeats and baseline that run's --repeats and --baseline give instead of the file's. */
    public WorkloadFile withRepeats(int runs, Baseline base) {
        return new WorkloadFile(file, name, source, description, command, repetitions, defaults, axes, perSystem, columns,
                warnings, runs, base);
    }

    /** Whether this is an OpenMessaging Benchmark file whose producerRate is 0, run as a sweep. */
    public boolean ombRateSearch() {
        return OMB_RATE_SEARCH_SOURCE.equals(source);
    }

    /**
     * {@code baseline: <cell label>}, matched against the labels once the matrix is expanded.
     *
     * @param origin where it was written: the file's line, or --baseline
     */
    public record Baseline(String label, Origin origin) {
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
