package dev.msgbench.core.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutablesTest {

    @TempDir
    Path dir;

    @Test
    void theFirstExecutableOnThePathIsFoundAndAPlainFileIsNot() throws Exception {
        Path first = Files.createDirectories(dir.resolve("a"));
        Path second = Files.createDirectories(dir.resolve("b"));
        Files.writeString(first.resolve("tool"), "not executable");
        Path program = Files.writeString(second.resolve("tool"), "#!/bin/sh\n");
        program.toFile().setExecutable(true);
        String path = first + File.pathSeparator + File.pathSeparator + second;

        assertEquals(Optional.of(program), Executables.onPath("tool", path));
        assertEquals(Optional.empty(), Executables.onPath("other", path));
        assertEquals(Optional.empty(), Executables.onPath("tool", null));
    }
}
