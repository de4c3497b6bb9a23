package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;

/** The `broker` command run as people run it: in its own JVM, ended by a signal. */
@NeedsBroker
class BrokerCommandCleanupTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aSigtermStopsTheBrokerAndRemovesItsTemporaryLogFolder() throws Exception {
        Path log = dir.resolve("broker-command.log");
        // its temp folders go to this test's folder, where the test can see what is left
        ManagedProcess command = new JavaChild("broker command", Main.class.getName(), List.of("-Djava.io.tmpdir=" + dir),
                List.of("broker", "nats"), null, log, null).start();
        try {
            Poll.until(() -> Files.exists(log) && read(log).contains("Ctrl+C stops it") || !command.isAlive());
            assertTrue(command.isAlive(), () -> read(log));
            List<Path> running = brokerFolders();
            assertTrue(running.stream().anyMatch(p -> p.getFileName().toString().startsWith("msgbench-broker-logs-")),
                    "a log folder while it runs: " + running);

            ProcessHandle.of(command.pid()).orElseThrow().destroy(); // SIGTERM to the JVM alone, as `kill` sends it

            OptionalInt exit = command.awaitExit(Duration.ofSeconds(30));
            assertTrue(exit.isPresent(), "ended");
            assertEquals(List.of(), brokerFolders(), read(log));
        } finally {
            command.stop(Duration.ofSeconds(5));
        }
    }

    private List<Path> brokerFolders() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            // msgbench-owned holds the markers of live processes, shared by every run: it stays
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith("msgbench-") && !name.equals("msgbench-owned"))
                    .map(dir::resolve).toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
