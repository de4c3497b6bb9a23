package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import dev.msgbench.core.UserError;

/**
 * A YAML file read as nodes rather than objects, so that every value keeps its line and every
 * error names it. Strict where YAML is lenient: a key given twice is an error, not "the last
 * one wins".
 */
public final class YamlDocument {

    private final String file;
    private final MappingNode root;

    private YamlDocument(String file, MappingNode root) {
        this.file = file;
        this.root = root;
    }

    /** @param file the path as the user wrote it, for messages */
    static YamlDocument parse(String file, String text) {
        Node node;
        try {
            node = new Yaml(new LoaderOptions()).compose(new java.io.StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw new UserError(file + (mark == null ? "" : ":" + (mark.getLine() + 1)) + ": not valid YAML: "
                    + oneLine(problem));
        } catch (YAMLException e) {
            throw new UserError(file + ": not valid YAML: " + oneLine(e.getMessage()));
        }
        if (node == null) {
            throw new UserError(file + ": the file is empty; see workloads/README.md for what a workload file holds");
        }
        if (!(node instanceof MappingNode)) {
            throw new UserError(file + ":" + line(node) + ": a workload file must be a map of keys (name, matrix, "
                    + "cells, ...), got " + describe(node));
        }
        return new YamlDocument(file, (MappingNode) node);
    }

    String file() {
        return file;
    }

    MappingNode root() {
        return root;
    }

    Origin origin(Node node) {
        return Origin.line(file, line(node));
    }

    /** The entries of a map in file order; a repeated or non-text key is an error. */
    Map<String, Node> entries(MappingNode map) {
        Map<String, Node> entries = new LinkedHashMap<>();
        Map<String, Node> keys = new HashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            Node keyNode = tuple.getKeyNode();
            if (!(keyNode instanceof ScalarNode) || keyNode.getTag().equals(Tag.NULL)) {
                throw origin(keyNode).error("a key must be a word, got " + describe(keyNode));
            }
            String key = ((ScalarNode) keyNode).getValue();
            if (keys.containsKey(key)) {
                throw origin(keyNode).error("key '" + key + "' is given twice (first at line " + line(keys.get(key)) + ")");
            }
            keys.put(key, keyNode);
            entries.put(key, tuple.getValueNode());
        }
        return entries;
    }

    /** The line of each key of a map, for errors about the key rather than its value. */
    Map<String, Origin> keyOrigins(MappingNode map) {
        Map<String, Origin> origins = new HashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode key) {
                origins.put(key.getValue(), origin(tuple.getKeyNode()));
            }
        }
        return origins;
    }

    MappingNode mapping(String what, Node node) {
        if (!(node instanceof MappingNode)) {
            throw origin(node).error("'" + what + "' must be a map, got " + describe(node));
        }
        return (MappingNode) node;
    }

    List<Node> list(String what, Node node) {
        if (!(node instanceof SequenceNode)) {
            throw origin(node).error("'" + what + "' must be a list, got " + describe(node));
        }
        return ((SequenceNode) node).getValue();
    }

    String text(String what, Node node) {
        if (!(node instanceof ScalarNode) || node.getTag().equals(Tag.NULL)) {
            throw origin(node).error("'" + what + "' must be a single value, got " + describe(node));
        }
        return ((ScalarNode) node).getValue();
    }

    long wholeNumber(String what, Node node) {
        if (node instanceof ScalarNode && node.getTag().equals(Tag.INT)) {
            try {
                return Long.parseLong(((ScalarNode) node).getValue().replace("_", ""));
            } catch (NumberFormatException e) {
                // a YAML integer in another base; refused below like any other word
            }
        }
        throw origin(node).error("'" + what + "' must be a whole number, got " + describe(node));
    }

    /** The value of flag {@code key}: a scalar, a map (KEY=VALUE flags) or a list (repeatable flags). */
    FlagValue flagValue(String key, Node node) {
        if (node instanceof ScalarNode scalar) {
            if (scalar.getTag().equals(Tag.NULL)) {
                throw origin(node).error("'" + key + "' has no value");
            }
            return scalar(scalar);
        }
        if (node instanceof MappingNode map) {
            Map<String, String> entries = new LinkedHashMap<>();
            entries(map).forEach((k, v) -> {
                if (!(v instanceof ScalarNode) || v.getTag().equals(Tag.NULL)) {
                    throw origin(v).error("'" + key + "': the value of '" + k + "' must be a single value, got " + describe(v));
                }
                entries.put(k, ((ScalarNode) v).getValue());
            });
            return new FlagValue.Props(entries);
        }
        List<FlagValue.Scalar> items = new ArrayList<>();
        for (Node item : ((SequenceNode) node).getValue()) {
            if (!(item instanceof ScalarNode) || item.getTag().equals(Tag.NULL)) {
                throw origin(item).error("'" + key + "': each item must be a single value, got " + describe(item));
            }
            items.add(scalar((ScalarNode) item));
        }
        return new FlagValue.Items(items);
    }

    private static FlagValue.Scalar scalar(ScalarNode node) {
        Tag tag = node.getTag();
        if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
            // YAML 1.1 allows 50_000_000; picocli does not
            return new FlagValue.Scalar(node.getValue().replace("_", ""), FlagValue.Type.NUMBER);
        }
        if (tag.equals(Tag.BOOL)) {
            return new FlagValue.Scalar(node.getValue(), FlagValue.Type.BOOLEAN);
        }
        return new FlagValue.Scalar(node.getValue(), FlagValue.Type.TEXT);
    }

    static int line(Node node) {
        return node.getStartMark().getLine() + 1;
    }

    static String describe(Node node) {
        if (node instanceof ScalarNode scalar) {
            return scalar.getTag().equals(Tag.NULL) ? "nothing" : "'" + scalar.getValue() + "'";
        }
        return node instanceof MappingNode ? "a map" : "a list";
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
