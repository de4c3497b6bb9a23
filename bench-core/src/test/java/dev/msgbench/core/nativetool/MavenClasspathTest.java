package dev.msgbench.core.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MavenClasspathTest {

    @TempDir
    Path cache;

    @Test
    void aClassPathResolvedBeforeIsReadFromTheCacheWithoutMaven() throws Exception {
        Files.writeString(cache.resolve("tool-1.2.classpath"), "/m2/a.jar:/m2/b.jar\n");
        List<String> progress = new ArrayList<>();

        assertEquals("/m2/a.jar:/m2/b.jar", MavenClasspath.resolve(MavenClasspathTest.class, "no-such.pom.xml", "tool-1.2",
                Map.of(), cache, progress::add));
        assertEquals(List.of(), progress);
    }

    @Test
    void aToolRunsInThisJvmsJavaWithItsClassPath() {
        assertEquals(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", "/a.jar"),
                MavenClasspath.java("/a.jar"));
    }
}
