package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.run.LoadRun;

/** The shape the runner keeps: systems come from their modules, commands do not call back into Main, a run is described once. */
class ArchitectureTest {

    private static final Path CLI = Path.of("src/main/java/dev/msgbench/cli");
    /** Main used as a type in code: Main.run, Main.class, a Main variable; not the word in a comment. */
    private static final Pattern USES_MAIN = Pattern.compile("\\bMain\\s*(\\.|::|\\s+\\w)");

    @Test
    void noClassUnderCliRefersBackToMain() throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLI)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("Main.java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String code = lines.get(i).strip();
                    if (!code.startsWith("*") && !code.startsWith("/") && USES_MAIN.matcher(code).find()) {
                        offenders.add(file + ":" + (i + 1) + ": " + code);
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
        assertEquals(Main.class.getName(), ToolLaunch.MAIN_CLASS);
    }

    @Test
    void noSystemLivesInTheRunner() throws IOException {
        assertFalse(Files.exists(CLI.resolve("systems")), "cli/systems is back: a system's flags belong in its module");
        try (Stream<Path> files = Files.walk(CLI)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file);
                assertFalse(text.contains("implements SystemTarget"), file + " implements a system: move it to its module");
                assertFalse(text.contains("Targets.create"), file + " lists the systems by hand: use Systems.create()");
            }
        }
    }

    /**
     * This class path is what bench-all.jar shades: a broker's server runs in a child JVM on jars of
     * its own (BrokerClasspath), so only the list of them may be here.
     */
    @Test
    void noBrokersServerIsShadedOnlyTheListOfItsJars() {
        ClassLoader runner = ArchitectureTest.class.getClassLoader();

        assertNull(runner.getResource("kafka/Kafka.class"), "Kafka's broker would be shaded into bench-all.jar");
        assertNull(runner.getResource("org/apache/kafka/server/config/AbstractKafkaConfig.class"));
        assertNull(runner.getResource("scala/Option.class"), "Scala would be shaded into bench-all.jar");
        assertNotNull(runner.getResource("META-INF/msgbench/brokers/kafka.classpath"));
        assertNotNull(runner.getResource("org/apache/kafka/clients/producer/KafkaProducer.class"));
    }

    /** LoadRun takes its RunSpec and RunContext whole: nothing public changes a run once made but running it. */
    @Test
    void loadRunHasNoMutators() {
        List<String> mutators = new ArrayList<>();
        for (Method method : LoadRun.class.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
                    && method.getReturnType() == LoadRun.class) {
                mutators.add(method.getName());
            }
        }
        assertEquals(List.of(), mutators);
        assertTrue(LoadRun.class.getConstructors().length > 0);
    }
}
