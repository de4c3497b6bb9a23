package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TempDirsTest {

    @Test
    @Timeout(10)
    void createMakesAPrefixedDirectoryInTheTempDirAndDeleteRemovesAllOfIt() throws IOException {
        Path dir = TempDirs.create("kafka");
        Files.createDirectories(dir.resolve("node-1/data"));
        Files.writeString(dir.resolve("node-1/data/segment"), "x");

        assertTrue(dir.getFileName().toString().startsWith("msgbench-kafka-"));
        assertTrue(dir.startsWith(Path.of(System.getProperty("java.io.tmpdir"))));

        TempDirs.deleteRecursively(dir);
        assertFalse(Files.exists(dir));
        TempDirs.deleteRecursively(dir);
    }
}
