package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import picocli.CommandLine;

/**
 * The examples at the end of every command's help are copied into a shell as they stand: a line the
 * help width wrapped would be pasted as two commands, and an objective such as p99<=10ms unquoted
 * is a redirection from a file named =10ms.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HelpExamplesTest {

    /** Every command and subcommand, as the words that reach it ("native-tool run"). */
    static Stream<String> commands() {
        Io io = new Io(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
        List<String> names = new ArrayList<>();
        collect(Main.commandLine(io), "", names);
        return names.stream();
    }

    private static void collect(CommandLine cl, String prefix, List<String> names) {
        cl.getSubcommands().forEach((name, sub) -> {
            names.add(prefix + name);
            collect(sub, prefix + name + " ", names);
        });
    }

    @ParameterizedTest
    @MethodSource("commands")
    void everyExampleIsOneLineThatAShellTakesAsItStands(String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add("--help");
        CliRun help = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, help.exitCode, help.toString());
        for (String example : examples(help.out)) {
            assertTrue(example.startsWith("  "), command + ": an example wrapped onto a line of its own: '" + example + "'");
            assertTrue(unquoted(example).indexOf('<') < 0, command + ": '<' outside quotes: " + example);
        }
    }

    /** sweep says its plan without running: each example's flags pass every check a sweep makes before it starts. */
    @Test
    void everySweepExamplePassesItsDryRun() {
        List<String> examples = examples(CliRun.of("sweep", "--help").out);
        assertFalse(examples.isEmpty());
        for (String example : examples) {
            List<String> args = words(example.split(" {3,}\\(")[0]);
            assertEquals("sweep", args.get(0), example);
            if (!args.contains("--dry-run")) {
                args.add("--dry-run");
            }
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, run.exitCode, example + "\n" + run);
        }
    }

    /** The words a shell makes of a line: split at spaces, a single-quoted part one word without its quotes. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (m.find()) {
            words.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return words;
    }

    /** The lines of the help's Example: or Examples: block, up to the blank line that ends it. */
    private static List<String> examples(String help) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : help.split("\r?\n")) {
            if (line.equals("Examples:") || line.equals("Example:")) {
                in = true;
            } else if (in && line.isBlank()) {
                in = false;
            } else if (in) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The example with every single-quoted part left out. */
    private static String unquoted(String example) {
        return example.replaceAll("'[^']*'", "");
    }
}
