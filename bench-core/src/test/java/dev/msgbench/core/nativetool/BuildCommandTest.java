package dev.msgbench.core.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;

class BuildCommandTest {

    @TempDir
    Path dir;

    @Test
    void aCommandRunsInItsDirectoryItsOutputGoesToTheLogAndItsStatusIsReturned() throws Exception {
        Path log = dir.resolve("build.log");

        assertEquals(3, BuildCommand.run(List.of("sh", "-c", "pwd; echo failed >&2; exit 3"), dir, log, Duration.ofMinutes(1)));
        assertEquals(dir.toRealPath() + "\nfailed\n", Files.readString(log));
    }

    @Test
    void aProgramThatIsNotThereIsOneLine() {
        UserError e = assertThrows(UserError.class, () -> BuildCommand.run(List.of(dir.resolve("nope").toString()), dir,
                dir.resolve("log"), Duration.ofMinutes(1)));
        assertEquals(0, e.getMessage().indexOf("cannot run " + dir.resolve("nope") + ": "), e.getMessage());
    }

    @Test
    void anOutputIsItsStdoutTrimmedAndNothingWhenTheCommandFails() {
        assertEquals("/home/go", BuildCommand.output(List.of("sh", "-c", "echo ' /home/go '; echo noise >&2"),
                Duration.ofMinutes(1)));
        assertEquals("", BuildCommand.output(List.of("sh", "-c", "echo half; exit 1"), Duration.ofMinutes(1)));
        assertEquals("", BuildCommand.output(List.of(dir.resolve("nope").toString()), Duration.ofMinutes(1)));
    }
}
