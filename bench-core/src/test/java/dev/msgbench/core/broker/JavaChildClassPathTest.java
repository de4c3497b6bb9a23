package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class JavaChildClassPathTest {

    @Test
    void everyClassPathEntryIsAbsoluteBecauseTheChildRunsElsewhere() {
        // `java -jar bench-all/target/bench-all.jar` gives a relative class path
        String original = System.getProperty("java.class.path");
        try {
            System.setProperty("java.class.path", "bench-all/target/bench-all.jar" + File.pathSeparator);
            List<Path> cp = JavaChild.thisClassPath();
            assertEquals(1, cp.size(), "no empty entry: " + cp);
            assertTrue(cp.get(0).isAbsolute(), cp.toString());
            assertTrue(cp.get(0).endsWith("bench-all/target/bench-all.jar"), cp.toString());
        } finally {
            System.setProperty("java.class.path", original);
        }
    }
}
