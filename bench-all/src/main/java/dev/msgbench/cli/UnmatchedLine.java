package dev.msgbench.cli;

import java.util.Collection;
import java.util.List;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What an argument the command does not know is, in a line that says so: picocli's own message
 * counts a misspelled flag's value as an unknown option too ("Unknown options: '--rat', '5'"), and
 * calls a misspelled command an "unmatched argument at index 0".
 */
public final class UnmatchedLine {

    /** A name this close is what was meant (a letter missed, doubled, swapped or wrong); a farther one is a guess. */
    private static final int MAX_EDITS = 2;

    private UnmatchedLine() {
    }

    /** {@code e}'s message, an argument its command does not know said as above. */
    static String messageOf(ParameterException e) {
        CommandLine command = e.getCommandLine();
        return messageOf(e, command.getParent() == null ? null : command.getCommandName());
    }

    /**
     * As {@link #messageOf(ParameterException)} for a command that hands its flags to another to parse
     * (sweep and calibrate to e2e): the line names {@code command}, null for the tool itself.
     */
    public static String messageOf(ParameterException e, String command) {
        if (!(e instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return e.getMessage();
        }
        String arg = unmatched.getUnmatched().get(0);
        CommandLine parser = e.getCommandLine();
        if (unmatched.isUnknownOption()) {
            String flag = arg.split("=", 2)[0];
            return (command == null ? "there is no flag '" : command + " has no flag '") + flag + "'"
                    + nearest(flag, parser.getCommandSpec().optionsMap().keySet());
        }
        if (!parser.getSubcommands().isEmpty()) {
            Set<String> commands = parser.getSubcommands().keySet();
            String nearest = nearest(arg, commands);
            return (command == null ? "there is no command '" : command + " has no command '") + arg + "'"
                    + (nearest.isEmpty() ? "; the commands are " + String.join(", ", commands) : nearest);
        }
        if (parser.getCommandSpec().positionalParameters().isEmpty()) {
            // picocli says "Unmatched argument at index 3", which names neither the command nor the rule
            return (command == null ? "msgbench" : command) + " takes flags only, no argument such as '" + arg
                    + "': each setting is --name value";
        }
        return e.getMessage();
    }

    /**
     * "; did you mean X?" for the one name within two edits of {@code typed} (the closest, the first
     * of equals), else empty. picocli's own suggestions are by likeness of letters, and offer
     * --bootstrap-servers for --bogus-flag.
     */
    static String nearest(String typed, Collection<String> names) {
        String best = null;
        int bestDistance = MAX_EDITS + 1;
        for (String candidate : names) {
            int d = edits(typed, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : "; did you mean " + best + "?";
    }

    /**
     * Levenshtein distance: insertions, deletions and substitutions of one character (the workload
     * keys' "did you mean" too).
     */
    public static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
