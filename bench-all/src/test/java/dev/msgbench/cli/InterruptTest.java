package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * Ctrl+C in the middle of a run: the terminal signals the whole process group; partial results
 * are written, and the broker (in a session of its own) is stopped by the suite, not by the key.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class InterruptTest {

    @TempDir
    Path dir;

    /** Waits until the run has logged this many one-second intervals of messages. */
    private static void awaitIntervals(Path hlog, int intervals) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(hlog)) {
                try (Stream<String> lines = Files.lines(hlog)) {
                    // one tagged line per kind and interval
                    if (lines.filter(l -> l.startsWith("Tag=")).count() >= 3L * intervals) {
                        return;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the run logged no intervals within 60 s");
    }

    @Test
    void ctrlCStopsTheRunWritesPartialResultsAndStopsTheLocalBroker() throws Exception {
        Path out = dir.resolve("run");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // its own process group, which Ctrl+C signals as a whole, as a terminal does; and SIGINT
        // back to its default first: a test run started as a background job of a script inherits
        // it ignored, and a JVM started so never hears Ctrl+C (perl is part of every Debian)
        Process process = new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"",
                "setsid", java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "e2e", "--duration", "60s", "--warmup", "0s", "--rate", "200", "--output", out.toString())
                .redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
                if (line.contains(" ready at ")) {
                    break;
                }
            }
            awaitIntervals(out.resolve("latency.hlog"), 2); // two seconds into the run
            List<ProcessHandle> brokers = process.descendants().toList();
            assertFalse(brokers.isEmpty(), "the local broker runs as a child process");
            new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).start().waitFor();
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join("\n", lines));
            for (ProcessHandle broker : brokers) {
                broker.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(broker.isAlive(), "broker process " + broker.pid() + " outlived the run");
            }
        }
        assertEquals(ExitCode.INTERRUPTED.code(), process.exitValue(), String.join("\n", lines));
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("interrupted", r.get("status").asText());
        assertTrue(r.get("counts").get("sent").asLong() > 0 && r.get("counts").get("sent").asLong() < 12_000, "sent " + r.get("counts").get("sent"));
        assertTrue(Files.size(out.resolve("latency.hlog")) > 0);
        assertTrue(String.join("\n", lines).contains("status: interrupted"), String.join("\n", lines));
    }
}
