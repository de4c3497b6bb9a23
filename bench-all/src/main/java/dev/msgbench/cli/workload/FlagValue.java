package dev.msgbench.cli.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A flag's value as a workload file writes it, before it becomes command-line arguments. The
 * YAML type is kept so that a word where a number belongs is caught with its line, before
 * picocli sees it.
 */
public sealed interface FlagValue {

    /** How a value reads in an error message. */
    String describe();

    /** The YAML type of a scalar; {@code UNTYPED} for text from the command line (--set). */
    enum Type { TEXT, NUMBER, BOOLEAN, UNTYPED }

    /** One value: {@code rate: 3000}, {@code size: 256B}. */
    record Scalar(String text, Type type) implements FlagValue {
        @Override
        public String describe() {
            return "'" + text + "'";
        }
    }

    /** KEY: VALUE pairs of a repeatable KEY=VALUE flag: {@code broker-prop: {log.flush.interval.messages: 1}}. */
    record Props(Map<String, String> entries) implements FlagValue {
        public Props {
            entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        @Override
        public String describe() {
            return "a map";
        }

        /** This map with {@code later}'s entries added, a key in both taking {@code later}'s value. */
        Props mergedWith(Props later) {
            Map<String, String> merged = new LinkedHashMap<>(entries);
            merged.putAll(later.entries);
            return new Props(merged);
        }
    }

    /** Several values of a repeatable flag. */
    record Items(List<Scalar> items) implements FlagValue {
        public Items {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }
}
