package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.msgbench.cli.UnmatchedLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flags of one command ({@code e2e}, {@code throughput}) as keys of a workload file: the
 * long name without its dashes. Read from the command's own picocli model, so a workload file
 * accepts exactly what the command line accepts, and a new flag needs no change here.
 */
public final class FlagCatalog {

    /** Set by run and sweep for every cell; a file that set them would fight the runner. */
    private static final Set<String> RESERVED = Set.of("output");

    private enum Kind { SWITCH, NUMBER, TEXT, PROPS, REPEATED }

    private static final Set<Class<?>> NUMBERS = Set.of(int.class, long.class, double.class, float.class, short.class,
            Integer.class, Long.class, Double.class, Float.class, Short.class);

    private final String command;
    private final Map<String, OptionSpec> options = new LinkedHashMap<>();

    private FlagCatalog(String command) {
        this.command = command;
    }

    /** @param options the command's flags, in the order a list of them shows them */
    public static FlagCatalog of(String command, List<OptionSpec> options) {
        FlagCatalog catalog = new FlagCatalog(command);
        for (OptionSpec option : options) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            for (String name : option.names()) {
                if (name.startsWith("--") && !RESERVED.contains(name.substring(2))) {
                    catalog.options.put(name.substring(2), option);
                }
            }
        }
        return catalog;
    }

    public String command() {
        return command;
    }

    public boolean has(String key) {
        return options.containsKey(key);
    }

    /** The default of a flag as picocli would apply it, or null. */
    public String defaultValue(String key) {
        OptionSpec option = options.get(key);
        return option == null ? null : option.defaultValue();
    }

    /** Throws, at the setting's origin, if this command has no such flag or the value has the wrong type. */
    public void check(Setting setting) {
        String key = setting.key();
        if (!options.containsKey(key)) {
            throw setting.origin().error(unknownKey(key));
        }
        FlagValue value = setting.value();
        FlagValue.Scalar scalar = value instanceof FlagValue.Scalar x ? x : null;
        boolean untyped = scalar != null && scalar.type() == FlagValue.Type.UNTYPED;
        boolean ok;
        String expected;
        switch (kind(key)) {
            case SWITCH:
                ok = scalar != null && (scalar.type() == FlagValue.Type.BOOLEAN
                        || untyped && (scalar.text().equals("true") || scalar.text().equals("false")));
                expected = "true or false";
                break;
            case NUMBER:
                ok = scalar != null && (scalar.type() == FlagValue.Type.NUMBER || untyped);
                expected = "a number";
                break;
            case TEXT:
                ok = scalar != null;
                expected = "a single value";
                break;
            case PROPS:
                ok = value instanceof FlagValue.Props || untyped;
                expected = "a map of KEY: VALUE";
                break;
            default:
                ok = !(value instanceof FlagValue.Props);
                expected = "a value or a list of values";
        }
        if (!ok) {
            throw setting.origin().error("'" + key + "' must be " + expected + ", got " + value.describe());
        }
    }

    /** The unknown-key message: the nearest flag if one is close, and every flag of the command. */
    public String unknownKey(String key) {
        if (RESERVED.contains(key)) {
            return "'" + key + "' cannot be set in a workload file: each cell writes to OUTPUT/<nn>-<label>; "
                    + "give run --output instead";
        }
        String near = null;
        int best = 3;
        for (String known : options.keySet()) {
            int d = UnmatchedLine.edits(key, known);
            if (d < best) {
                best = d;
                near = known;
            }
        }
        return "unknown key '" + key + "' (" + (near == null ? "" : "did you mean '" + near + "'? ") + "flags of "
                + command + ": " + String.join(", ", options.keySet()) + ")";
    }

    /** The command-line arguments of a checked setting, e.g. {@code --broker-prop a=1 --broker-prop b=2}. */
    public List<String> args(Setting setting) {
        String flag = "--" + setting.key();
        List<String> args = new ArrayList<>();
        FlagValue value = setting.value();
        if (kind(setting.key()) == Kind.SWITCH) {
            if (isTrue(((FlagValue.Scalar) value).text())) {
                args.add(flag);
            }
        } else if (value instanceof FlagValue.Props p) {
            p.entries().forEach((k, v) -> {
                args.add(flag);
                args.add(k + "=" + v);
            });
        } else if (value instanceof FlagValue.Items items) {
            for (FlagValue.Scalar item : items.items()) {
                args.add(flag);
                args.add(item.text());
            }
        } else {
            args.add(flag);
            args.add(((FlagValue.Scalar) value).text());
        }
        return args;
    }

    /** YAML 1.1's words for true, as SnakeYAML resolves them. */
    private static boolean isTrue(String text) {
        return Set.of("true", "yes", "on").contains(text.toLowerCase(java.util.Locale.ROOT));
    }

    private Kind kind(String key) {
        OptionSpec option = options.get(key);
        Class<?> type = option.type();
        if ((type == boolean.class || type == Boolean.class) && option.arity().max() == 0) {
            return Kind.SWITCH;
        }
        if (Map.class.isAssignableFrom(type)) {
            return Kind.PROPS;
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return Kind.REPEATED;
        }
        // a flag with its own converter takes units (256B, 30s) even where it holds a number
        boolean converted = option.converters() != null && option.converters().length > 0;
        return NUMBERS.contains(type) && !converted ? Kind.NUMBER : Kind.TEXT;
    }
}
