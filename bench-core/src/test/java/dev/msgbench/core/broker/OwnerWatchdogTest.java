package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.testing.Poll;
import dev.msgbench.core.testing.ProcessEnds;
import dev.msgbench.core.testing.TakesSeconds;

/**
 * A process the suite starts ends with the JVM that started it, even when that JVM is SIGKILLed
 * and runs no shutdown hook: its watchdog ends the process and every process of its group, and
 * deletes its temp dir and marker, without waiting for the next run's reaper. The brokers
 * themselves are in bench-all's BrokersOutliveNoKilledRunTest.
 */
class OwnerWatchdogTest {

    /** What the kernel and the watchdog take after the kill; generous for a busy machine. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    /**
     * The owner JVM: starts {@code sh -c 'sleep 600 & sleep 600'} (a process and its child) with a
     * temp dir, prints the pids and waits to be killed. Args: marker dir, temp dir's parent.
     */
    public static final class Owner {
        public static void main(String[] args) throws Exception {
            Path tempDir = TempDirs.create(Path.of(args[1]), "watched");
            ManagedProcess p = ManagedProcess.start(new NativeCommand("watched node", List.of("sh", "-c",
                    "sleep 600 & echo child $!; sleep 600"), Map.of(), tempDir, tempDir.resolve("node.log"), tempDir),
                    Path.of(args[0]));
            System.out.println("started " + p.pid() + " " + tempDir);
            System.out.flush();
            new CountDownLatch(1).await();
        }
    }

    @Test
    @Timeout(60)
    @TakesSeconds
    void aProcessAndItsGroupEndWithinSecondsOfItsOwnerJvmsSigkillAndLeaveNoFolderOrMarker() throws Exception {
        Path markers = dir.resolve("owned");
        Process owner = new ProcessBuilder(JavaChild.javaExecutable(), "-cp",
                JavaChild.thisClassPath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)), Owner.class.getName(),
                markers.toString(), dir.toString()).redirectErrorStream(true).start();
        try {
            String[] started = startedLine(owner);
            long pid = Long.parseLong(started[1]);
            Path tempDir = Path.of(started[2]);
            ProcessHandle node = ProcessHandle.of(pid).orElseThrow();
            List<ProcessHandle> group = new ArrayList<>(node.descendants().toList());
            group.add(node);
            assertTrue(group.size() >= 2, "the node and its child sleep: " + group);
            // the watchdog ends last, once it has ended the group and deleted the folder and marker
            List<ProcessHandle> all = owner.descendants().toList();
            assertTrue(all.containsAll(group), "the owner started the group: " + all);
            assertEquals(1, markers(markers).size());

            owner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertEquals(137, owner.waitFor());

            ProcessEnds.await(all, GONE_WITHIN, () -> "processes " + all + " ended after their owner's SIGKILL");
            assertFalse(Files.exists(tempDir), "temp dir " + tempDir + " deleted");
            assertEquals(List.of(), markers(markers), "marker deleted");
        } finally {
            owner.destroyForcibly();
        }
    }

    @Test
    @Timeout(30)
    void aProcessTheSuiteStopsTakesItsWatchdogWithItAndItsFoldersStayForTheSuiteToDelete() throws Exception {
        Path tempDir = TempDirs.create(dir, "stopped");
        ManagedProcess p = ManagedProcess.start(new NativeCommand("stopped node", List.of("sleep", "600"), Map.of(),
                tempDir, tempDir.resolve("node.log"), tempDir), dir.resolve("owned"));
        // a child just forked shows the JVM's command line until it has exec'd the watchdog's, and
        // one read mid-exec can come back empty: the list that was seen is the one kept
        List<ProcessHandle> watchdogs = Poll.value(() -> {
            List<ProcessHandle> seen = watchdogsOf("stopped node");
            return seen.isEmpty() ? null : seen;
        });
        assertEquals(1, watchdogs.size(), "one watchdog beside the process");

        p.stop(Duration.ofSeconds(5));

        assertFalse(watchdogs.get(0).isAlive(), "ended with its process");
        assertTrue(Files.isDirectory(tempDir), "the watchdog did not act: the suite deletes its folders itself");
    }

    @Test
    @Timeout(30)
    void aJavaChildEndsItselfAndHasNoWatchdog() throws Exception {
        Path log = dir.resolve("child.log");
        ManagedProcess p = new JavaChild("java node", Sleeper.class.getName(), List.of(), List.of(), null, log, null).start();
        try {
            assertEquals(List.of(), watchdogsOf("java node"));
        } finally {
            p.stop(Duration.ofSeconds(5));
        }
    }

    /** A Java child that waits to be stopped. */
    public static final class Sleeper {
        public static void main(String[] args) throws Exception {
            new CountDownLatch(1).await();
        }
    }

    private static List<ProcessHandle> watchdogsOf(String name) {
        return ProcessHandle.current().children()
                .filter(h -> h.info().commandLine().orElse("").contains("msgbench watchdog of " + name))
                .toList();
    }

    private static String[] startedLine(Process owner) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith("started ")) {
                return line.split(" ");
            }
        }
        throw new AssertionError("the owner ended (exit " + owner.waitFor() + ") before starting:\n" + seen);
    }

    private static List<Path> markers(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(ProcessMarker.SUFFIX)).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
