package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * --broker-cpus and --cpus against a real nats-server, the CPUs read back from the kernel. The
 * e2e runs in this test JVM, which --cpus pins for the run and puts back afterwards; the tune
 * case pins a child JVM.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class CpuPinningTest {

    @TempDir
    Path dir;

    private String cpusBefore;
    /** Two CPUs this JVM may use, apart where it may use more than one (the same one otherwise). */
    private String first;
    private String last;

    @BeforeEach
    void pickCpus() throws IOException {
        List<Integer> allowed = CpuAffinity.allowedForThisJvm().cpus();
        first = String.valueOf(allowed.get(0));
        last = String.valueOf(allowed.get(allowed.size() - 1));
        cpusBefore = masksOfThisJvm();
    }

    @Test
    void theBrokerAndTheLoadGeneratorRunOnTheirOwnCpusAndTheResultSaysSo() throws Exception {
        Path out = dir.resolve("apart");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--broker-cpus", first, "--cpus", last, "--rate", "500",
                "--duration", "1s", "--warmup", "500ms", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(first, r.get("broker").get("cpus").asText());
        assertEquals("[\"" + first + "\"]", r.get("broker").get("cpusAllowed").toString(),
                "read from /proc/PID/status of the server");
        assertEquals(last, r.get("loadGenerator").get("cpus").asText());
        assertEquals(last, r.get("loadGenerator").get("cpusAllowed").asText(), "read from /proc/self/status during the run");
        assertEquals(1, r.get("loadGenerator").get("cores").asInt(), "the JVM itself sees one core");
        assertEquals(0, ResultTrees.lost(r));
        assertTrue(run.err.contains("load generator pinned to CPUs " + last + " (--cpus)"), run.err);
        assertTrue(run.err.contains("starting a local nats broker (1 node, CPUs " + first + ") ..."), run.err);
        assertEquals(cpusBefore, masksOfThisJvm(), "every thread of this JVM is back on its CPUs");
    }

    @Test
    void pinnedAloneOurJvmKeepsItsOldCpusForTheBroker() throws Exception {
        Path out = dir.resolve("cpus-only");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--cpus", first, "--rate", "500", "--duration", "1s",
                "--warmup", "500ms", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(first, r.get("loadGenerator").get("cpusAllowed").asText());
        assertTrue(r.get("broker").get("cpus").isNull(), "not asked for");
        assertEquals("[\"" + cpusBefore + "\"]", r.get("broker").get("cpusAllowed").toString(),
                "the server does not inherit --cpus from the JVM that started it");
        assertEquals(cpusBefore, masksOfThisJvm());
    }

    @Test
    @Timeout(120)
    void tuneHandsBothFlagsToEveryChildJvm() throws Exception {
        CliRun run = CliRun.of("tune", "--jdk", System.getProperty("java.home"), "--sets", "G1", "--broker-cpus", last,
                "--cpus", first, "--output", dir.toString(), "--", "--system", "nats", "--rate", "500", "--warmup", "500ms",
                "--duration", "1s");

        assertEquals(0, run.exitCode, run.toString());
        JsonNode child = ResultFiles.json().readTree(
                dir.resolve("jdk" + Runtime.version().feature() + "-G1/result.json").toFile());
        assertEquals(first, child.get("loadGenerator").get("cpusAllowed").asText(), child.toString());
        assertEquals("[\"" + last + "\"]", child.get("broker").get("cpusAllowed").toString(), child.toString());
        assertEquals(cpusBefore, masksOfThisJvm(), "tune itself is not pinned");
    }

    /** Cpus_allowed_list of every thread of this JVM, distinct values joined; one value when all agree. */
    private static String masksOfThisJvm() throws IOException {
        TreeSet<String> masks = new TreeSet<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc/self/task"))) {
            for (Path thread : threads.toList()) {
                try {
                    List<String> status = Files.readAllLines(thread.resolve("status"));
                    status.stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                            .forEach(l -> masks.add(l.substring("Cpus_allowed_list:".length()).trim()));
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return String.join(" | ", masks);
    }
}
