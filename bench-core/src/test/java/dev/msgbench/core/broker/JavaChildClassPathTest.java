package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class JavaChildClassPathTest {

    @Test
    void everyClassPathEntryIsAbsoluteBecauseTheChildRunsElsewhere() {
        // `java -jar bench-all/target/bench-all.jar` gives a relative class path
        String original = System.getProperty("java.class.path");
        try {
            System.setProperty("java.class.path", "bench-all/target/bench-all.jar" + File.pathSeparator);
            String cp = JavaChild.classPath();
            assertTrue(Path.of(cp).isAbsolute(), cp);
            assertTrue(cp.endsWith("bench-all/target/bench-all.jar"), cp);
            assertFalse(cp.contains(File.pathSeparator), "no empty entry: " + cp);
        } finally {
            System.setProperty("java.class.path", original);
        }
    }
}
