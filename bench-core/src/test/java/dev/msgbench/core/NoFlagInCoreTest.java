package dev.msgbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * bench-core never spells a command-line flag: it names a {@link Setting} in a {@link Phrase}, and
 * whoever shows the line names the setting (the command line: {@code --topics}; a workload file or
 * an API caller: otherwise). Comments may mention flags; string literals may not.
 */
class NoFlagInCoreTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern FLAG = Pattern.compile("--[a-z]");

    @Test
    void noStringLiteralInCoreNamesAFlag() throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                for (Literal literal : literals(Files.readString(file))) {
                    if (FLAG.matcher(literal.text).find()) {
                        offenders.add(file + ":" + literal.line + ": " + literal.text);
                    }
                }
            }
        }
        assertEquals(List.of(), offenders, "name a Setting in a Phrase instead of the flag (see Setting's javadoc)");
    }

    @Test
    void theScanFindsLiteralsAndSkipsComments() {
        String source = """
                // "--not-this" in a line comment
                /* "--nor-this" */ String a = "--this";
                /** {@code --nor-javadoc} */
                char q = '"'; String b = "say \\"--that\\" too";
                """;

        assertEquals(List.of("--this", "say \\\"--that\\\" too"),
                literals(source).stream().map(l -> l.text).filter(t -> FLAG.matcher(t).find()).toList());
        assertEquals(2, literals(source).get(0).line);
    }

    private record Literal(int line, String text) {
    }

    /** The string literals of Java source, text blocks included, outside comments and char literals. */
    private static List<Literal> literals(String source) {
        List<Literal> found = new ArrayList<>();
        int line = 1;
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (source.startsWith("//", i)) {
                i = source.indexOf('\n', i) < 0 ? source.length() : source.indexOf('\n', i);
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end + 2;
                line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
                i = end;
            } else if (c == '\'' || c == '"') {
                String close = source.startsWith("\"\"\"", i) ? "\"\"\"" : String.valueOf(c);
                int start = i + close.length();
                int j = start;
                while (j < source.length() && !source.startsWith(close, j)) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                String text = source.substring(start, Math.min(j, source.length()));
                if (c == '"') {
                    found.add(new Literal(line, text));
                }
                line += (int) text.chars().filter(ch -> ch == '\n').count();
                i = j + close.length();
            } else {
                i++;
            }
        }
        return found;
    }
}
