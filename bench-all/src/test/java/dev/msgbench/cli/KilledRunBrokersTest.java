package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.msgbench.core.broker.ProcStat;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ProcessEnds;

/**
 * A runner JVM killed with SIGKILL runs no shutdown hook, so it cannot stop the native brokers it
 * started: their watchdogs do, within seconds, with every process of theirs (RabbitMQ's epmd,
 * beam.smp and its helpers), their temp dirs and markers, without waiting for the next run to
 * reap them. The runner is the {@code broker} command in a JVM of its own, starting each broker
 * through the suite's own launcher.
 */
@NeedsBroker
class KilledRunBrokersTest {

    /** What the kernel and the watchdogs take after the kill; generous for a busy machine. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nats", "redis", "rabbitmq"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theBrokersOfARunnerKilledWithSigkillEndWithinSecondsAndLeaveNoFolderOrMarker(String system) throws Exception {
        // its temp dirs and markers go to this test's folder, where the test can see what is left
        Process runner = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "broker", system)).redirectErrorStream(true).start();
        try {
            KilledRunTest.awaitLine(runner, line -> line.endsWith("; Ctrl+C stops it"), "... Ctrl+C stops it");
            List<ProcessHandle> all = runner.descendants().toList();
            List<ProcessHandle> brokers = all.stream()
                    .filter(h -> !h.info().commandLine().orElse("").contains("msgbench watchdog of"))
                    .toList();
            assertFalse(brokers.isEmpty(), "the broker runs as a child process of the runner");
            List<String> running = brokerFolders();
            assertFalse(running.isEmpty(), "its temp dirs while it runs");

            runner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertEquals(128 + 9, runner.waitFor());

            // the watchdogs end last, once they have ended the brokers and deleted their folders and markers
            ProcessEnds.await(all, GONE_WITHIN, () -> "every process of the broker and its watchdogs ended: "
                    + all.stream().filter(ProcStat::isRunning).map(h -> h.pid() + " " + h.info().command().orElse(""))
                    .toList());
            // the runner's own log folder is the runner's to delete: the next run's reaper has no marker for it
            assertTrue(brokerFolders().stream().allMatch(name -> name.startsWith("msgbench-broker-logs-")),
                    "the broker's temp dirs deleted: " + brokerFolders());
            assertEquals(List.of(), markers(), "its markers deleted");
        } finally {
            runner.destroyForcibly();
        }
    }

    /** The msgbench-* folders in the runner's temp dir, but the markers' folder. */
    private List<String> brokerFolders() {
        return list(dir).stream().filter(name -> name.startsWith("msgbench-") && !name.equals("msgbench-owned")).toList();
    }

    private List<String> markers() {
        return list(dir.resolve("msgbench-owned"));
    }

    private static List<String> list(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
