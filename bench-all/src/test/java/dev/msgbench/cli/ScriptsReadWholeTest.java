package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The long-running scripts wrap their body in braces so that bash parses all of it before it runs
 * any of it: editing or pulling a script during an hour's run must not change that run. The block
 * must end in an exit. Without one, bash reads on from its old byte offset once the block is done,
 * and in a file that changed meanwhile that offset can fall in the middle of a line, which bash
 * then runs as a command: a compare-native run did exactly that, running `nats-server and Redis ...`
 * from a line of its legend.
 */
class ScriptsReadWholeTest {

    /** Maven runs each module's tests in the module's folder. */
    private static final Path SCRIPTS = Path.of("..", "scripts").toAbsolutePath().normalize();

    @Test
    void everyScriptReadWholeEndsItsBlockWithAnExit() throws IOException {
        List<Path> wrapped = new ArrayList<>();
        try (Stream<Path> files = Files.list(SCRIPTS)) {
            for (Path script : files.filter(Files::isRegularFile).sorted().toList()) {
                List<String> lines = Files.readAllLines(script, StandardCharsets.UTF_8);
                if (!lines.contains("{")) {
                    continue;
                }
                wrapped.add(script);
                List<String> code = lines.stream().map(String::strip)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
                assertTrue(code.size() >= 2 && code.get(code.size() - 1).equals("}"),
                        script.getFileName() + ": nothing but comments may follow the block's closing brace");
                String last = code.get(code.size() - 2);
                assertTrue(last.equals("exit") || last.startsWith("exit "),
                        script.getFileName() + ": the block's last command must be an exit, not '" + last + "'");
            }
        }
        assertFalse(wrapped.isEmpty(), "no script under " + SCRIPTS + " reads itself whole: the test checked nothing");
        assertTrue(wrapped.stream().anyMatch(p -> p.getFileName().toString().equals("compare-native")),
                "compare-native is no longer read whole: " + wrapped);
    }
}
