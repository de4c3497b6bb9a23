package dev.msgbench.core.nativetool;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A tool's printed output, read line by line as its parsers need it. */
public final class ToolOutput {

    private ToolOutput() {
    }

    /**
     * The first group of the last line that {@code pattern} matches from its start: tools print
     * progress lines of the same shape before their final one.
     */
    public static Optional<String> lastGroup(String output, Pattern pattern) {
        String found = null;
        for (String line : lines(output)) {
            Matcher m = pattern.matcher(line);
            if (m.lookingAt()) {
                found = m.group(1);
            }
        }
        return Optional.ofNullable(found);
    }

    /** Whether a line starts with {@code prefix}. */
    public static boolean anyLineStartsWith(String output, String prefix) {
        return lines(output).stream().anyMatch(line -> line.startsWith(prefix));
    }

    public static List<String> lines(String output) {
        return output.lines().toList();
    }
}
