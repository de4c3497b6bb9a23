package dev.msgbench.cli.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Shell-style placeholders in OpenMessaging Benchmark files ({@code testDurationMinutes: ${ombTestDuration:-15}}),
 * which OMB's scripts fill from the environment: read the same way here, from the environment or else the default,
 * and said in a line so that nobody wonders which value ran.
 */
public final class OmbPlaceholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?}");

    private OmbPlaceholders() {
    }

    /** The top-level entries with every whole-value placeholder replaced by its value, typed as YAML would type it. */
    static Map<String, Node> resolve(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines,
            Function<String, String> environment, List<String> warnings) {
        Map<String, Node> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, Node> entry : top.entrySet()) {
            Node node = entry.getValue();
            Matcher matcher = node instanceof ScalarNode scalar ? PLACEHOLDER.matcher(scalar.getValue().strip()) : null;
            if (matcher == null || !matcher.matches()) {
                resolved.put(entry.getKey(), node);
                continue;
            }
            String variable = matcher.group(1);
            String fromEnvironment = environment.apply(variable);
            String value;
            String source;
            if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
                value = fromEnvironment;
                source = "from environment variable " + variable;
            } else if (matcher.group(2) != null) {
                value = matcher.group(2);
                source = "its default (environment variable " + variable + " is not set)";
            } else {
                throw doc.origin(node).error("'" + entry.getKey() + "' is " + matcher.group() + " and environment variable "
                        + variable + " is not set (set it, or write a value or a default: ${" + variable + ":-VALUE})");
            }
            warnings.add(lines.get(entry.getKey()) + ": " + entry.getKey() + " " + matcher.group() + " read as " + value
                    + ", " + source);
            resolved.put(entry.getKey(), new ScalarNode(new Resolver().resolve(NodeId.scalar, value, true), value,
                    node.getStartMark(), node.getEndMark(), DumperOptions.ScalarStyle.PLAIN));
        }
        return resolved;
    }
}
