package dev.msgbench.cli.workload;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import dev.msgbench.core.UserError;

/**
 * Reads a workload file: msgbench's own format (workloads/README.md), or an OpenMessaging
 * Benchmark workload, told apart by OMB's keys. Strict: an unknown key, a key given twice or a
 * value of the wrong type is an error naming the file and line.
 */
public final class WorkloadReader {

    static final List<String> KEYS = List.of("name", "source", "description", "command", "repetitions", "repeats",
            "baseline", "defaults", "matrix", "cells", "per-system", "table");
    static final String CELLS = "cells";
    private static final String LABEL = "label";
    private static final String COMMAND = "command";

    private final YamlDocument doc;
    private final Catalogs catalogs;

    private WorkloadReader(YamlDocument doc, Catalogs catalogs) {
        this.doc = doc;
        this.catalogs = catalogs;
    }

    /**
     * @param shownAs    the path as the user wrote it, for messages
     * @param ombSystem  the system an OpenMessaging Benchmark file is run against
     */
    /** Far above any experiment's file (the largest shipped is a few KiB). */
    static final long MAX_FILE_BYTES = 1 << 20;

    public static WorkloadFile read(Path path, String shownAs, Catalogs catalogs, String ombSystem) {
        String text;
        try {
            long size = Files.size(path);
            if (size > MAX_FILE_BYTES) {
                // the YAML parser takes minutes over a long value in a file this large before it gives up
                throw new UserError(String.format(Locale.US, "%s: %,d bytes is too large for a workload file (at most "
                        + "%,d); a workload file describes runs, it holds no data", shownAs, size, MAX_FILE_BYTES));
            }
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserError(shownAs + ": no such file");
        } catch (MalformedInputException e) {
            throw new UserError(shownAs + ": not a text file (UTF-8 expected); a workload file is YAML");
        } catch (IOException e) {
            throw new UserError(shownAs + ": cannot read it: " + e.getMessage());
        }
        return parse(shownAs, text, catalogs, ombSystem);
    }

    public static WorkloadFile parse(String shownAs, String text, Catalogs catalogs, String ombSystem) {
        YamlDocument doc = YamlDocument.parse(shownAs, text);
        if (OmbWorkload.isOmb(doc)) {
            return OmbWorkload.read(doc, catalogs, ombSystem);
        }
        return new WorkloadReader(doc, catalogs).read();
    }

    private WorkloadFile read() {
        Map<String, Node> top = doc.entries(doc.root());
        Map<String, Origin> keyLines = doc.keyOrigins(doc.root());
        for (String key : top.keySet()) {
            if (!KEYS.contains(key)) {
                throw keyLines.get(key).error("unknown key '" + key + "' (keys of a workload file: "
                        + String.join(", ", KEYS) + "; or the keys of an OpenMessaging Benchmark workload: "
                        + String.join(", ", OmbWorkload.KEYS) + ")");
            }
        }
        String name = top.containsKey("name") ? doc.text("name", top.get("name")) : stem(doc.file());
        String source = top.containsKey("source") ? doc.text("source", top.get("source")) : null;
        String description = top.containsKey("description") ? doc.text("description", top.get("description")) : null;
        String command = top.containsKey(COMMAND) ? command(top.get(COMMAND)) : "e2e";
        int repetitions = runs(top, "repetitions");
        int repeats = runs(top, "repeats");
        if (repetitions > 1 && repeats > 1) {
            throw doc.origin(top.get("repeats")).error("'repeats' and 'repetitions' cannot both be above 1 (got "
                    + repeats + " and " + repetitions + "): repeats run the cells interleaved, for their spread and "
                    + "verdicts; repetitions back to back; give one");
        }
        WorkloadFile.Baseline baseline = top.containsKey("baseline")
                ? new WorkloadFile.Baseline(doc.text("baseline", top.get("baseline")), doc.origin(top.get("baseline")))
                : null;
        List<Setting> defaults = top.containsKey("defaults") ? flags("defaults", top.get("defaults"), false).settings()
                : List.of();
        List<WorkloadFile.Axis> axes = new ArrayList<>();
        if (top.containsKey("matrix")) {
            doc.entries(doc.mapping("matrix", top.get("matrix"))).forEach((key, node) -> axes.add(axis(key, node)));
        }
        if (top.containsKey(CELLS)) {
            List<WorkloadFile.Item> items = new ArrayList<>();
            for (Node item : doc.list(CELLS, top.get(CELLS))) {
                items.add(flags(CELLS, item, true));
            }
            if (items.isEmpty()) {
                throw doc.origin(top.get(CELLS)).error("'cells' is empty; give at least one cell, or leave the key out");
            }
            axes.add(new WorkloadFile.Axis(CELLS, items));
        }
        Map<String, List<Setting>> perSystem = new LinkedHashMap<>();
        if (top.containsKey("per-system")) {
            MappingNode map = doc.mapping("per-system", top.get("per-system"));
            Map<String, Origin> lines = doc.keyOrigins(map);
            doc.entries(map).forEach((system, node) -> {
                if (!catalogs.systems().contains(system)) {
                    throw lines.get(system).error("unknown system '" + system + "' in per-system (systems: "
                            + String.join(", ", catalogs.systems()) + ")");
                }
                perSystem.put(system, flags("per-system", node, false).settings());
            });
        }
        List<String> columns = top.containsKey("table") ? columns(top.get("table")) : Columns.defaults(command);
        return new WorkloadFile(doc.file(), name, source, description, command, repetitions, defaults, axes, perSystem,
                columns, List.of(), repeats, baseline);
    }

    /** 'repetitions' or 'repeats': 1 to 1000, 1 when not given. */
    private int runs(Map<String, Node> top, String key) {
        if (!top.containsKey(key)) {
            return 1;
        }
        long r = doc.wholeNumber(key, top.get(key));
        if (r < 1 || r > 1000) {
            throw doc.origin(top.get(key)).error("'" + key + "' must be 1 to 1000, got " + r);
        }
        return (int) r;
    }

    /**
     * A matrix entry: a flag with a list of its values, or a named axis (any other name) whose
     * items are sets of flags like cells.
     */
    private WorkloadFile.Axis axis(String key, Node node) {
        List<Node> values = doc.list("matrix: " + key, node);
        if (values.isEmpty()) {
            throw doc.origin(node).error("matrix '" + key + "' has no values; give at least one");
        }
        List<WorkloadFile.Item> items = new ArrayList<>();
        if (catalogs.anyHas(key)) {
            for (Node value : values) {
                Setting setting = new Setting(key, doc.flagValue(key, value), doc.origin(value));
                items.add(new WorkloadFile.Item(label(setting), null, List.of(setting), doc.origin(value)));
            }
            return new WorkloadFile.Axis(key, items);
        }
        if (!(values.get(0) instanceof MappingNode)) {
            throw doc.origin(node).error(catalogs.of(commandOrDefault()).unknownKey(key)
                    + "; a matrix entry that is not a flag is a named axis, a list of maps of flags like cells");
        }
        for (Node value : values) {
            items.add(flags("matrix: " + key, value, true));
        }
        return new WorkloadFile.Axis(key, items);
    }

    /** A map of flags; an item of cells or of a named axis may also have a label and a command. */
    private WorkloadFile.Item flags(String what, Node node, boolean item) {
        MappingNode map = doc.mapping(what, node);
        Map<String, Origin> lines = doc.keyOrigins(map);
        List<Setting> settings = new ArrayList<>();
        String label = null;
        String command = null;
        for (Map.Entry<String, Node> e : doc.entries(map).entrySet()) {
            String key = e.getKey();
            if (item && key.equals(LABEL)) {
                label = doc.text(LABEL, e.getValue());
            } else if (item && key.equals(COMMAND)) {
                command = command(e.getValue());
            } else if (catalogs.anyHas(key)) {
                settings.add(new Setting(key, doc.flagValue(key, e.getValue()), lines.get(key)));
            } else {
                throw lines.get(key).error(catalogs.of(command != null ? command : commandOrDefault()).unknownKey(key));
            }
        }
        if (label == null) {
            List<String> parts = new ArrayList<>();
            settings.forEach(s -> parts.add(label(s)));
            label = String.join(" ", parts);
        }
        return new WorkloadFile.Item(label, command, settings, doc.origin(node));
    }

    private String command(Node node) {
        String command = doc.text(COMMAND, node);
        if (catalogs.of(command) == null) {
            throw doc.origin(node).error("'command' must be one of " + String.join(", ", catalogs.commands().keySet())
                    + ", got '" + command + "'");
        }
        return command;
    }

    /** The file's command as far as read, for the list of flags in an unknown-key message. */
    private String commandOrDefault() {
        Map<String, Node> top = doc.entries(doc.root());
        Node node = top.get(COMMAND);
        if (node instanceof ScalarNode scalar && catalogs.of(scalar.getValue()) != null) {
            return scalar.getValue();
        }
        return "e2e";
    }

    private List<String> columns(Node node) {
        MappingNode table = doc.mapping("table", node);
        Map<String, Origin> lines = doc.keyOrigins(table);
        List<String> columns = new ArrayList<>();
        for (Map.Entry<String, Node> e : doc.entries(table).entrySet()) {
            if (!e.getKey().equals("columns")) {
                throw lines.get(e.getKey()).error("unknown key '" + e.getKey() + "' in table (keys: columns)");
            }
            for (Node column : doc.list("columns", e.getValue())) {
                String id = doc.text("columns", column);
                if (!Columns.IDS.contains(id)) {
                    throw doc.origin(column).error("unknown column '" + id + "' (columns: " + String.join(", ", Columns.IDS) + ")");
                }
                columns.add(id);
            }
        }
        return columns;
    }

    /** How a flag appears in a cell's label: the system by name, anything else as key=value. */
    static String label(Setting setting) {
        FlagValue value = setting.value();
        String text;
        if (value instanceof FlagValue.Scalar scalar) {
            text = scalar.text();
        } else if (value instanceof FlagValue.Props props) {
            List<String> entries = new ArrayList<>();
            props.entries().forEach((k, v) -> entries.add(k + "=" + v));
            text = entries.isEmpty() ? "none" : String.join(",", entries);
        } else {
            List<String> items = new ArrayList<>();
            ((FlagValue.Items) value).items().forEach(i -> items.add(i.text()));
            text = String.join(",", items);
        }
        return setting.key().equals("system") ? text : setting.key() + "=" + text;
    }

    static String stem(String file) {
        String name = Path.of(file).getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
