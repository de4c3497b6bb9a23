package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * Whether a run says that the machine, not the system, was measured: a busy loop of this test's
 * own beside an e2e run against a real nats-server, and the same run pinned apart without it.
 * The busy loop runs in this JVM, which --cpus pins with every thread of the run to the one CPU
 * the broker gets too: that CPU is then kept busy whatever else runs on the machine (CI runs two
 * test JVMs at once, whose processes may take part of it), so the warning does not depend on a
 * quiet machine.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class CpuContentionWarningTest {

    @TempDir
    Path dir;

    private final List<Integer> allowed = CpuAffinity.allowedForThisJvm().cpus();
    private final String first = String.valueOf(allowed.get(0));
    private final String last = String.valueOf(allowed.get(allowed.size() - 1));

    @Test
    void aBusyLoopOnTheCoreTheRunSharesWithTheBrokerIsWarnedOf() throws Exception {
        Path out = dir.resolve("busy");
        BusyLoop loop = new BusyLoop(2);
        CliRun run;
        try {
            run = CliRun.of("e2e", "--system", "nats", "--broker-cpus", first, "--cpus", first, "--rate", "1000",
                    "--duration", "3s", "--warmup", "1s", "--output", out.toString());
        } finally {
            loop.stop();
        }

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        // "and kept them N% busy", or, where the other test JVM's processes took part of that CPU, ", which were"
        String prefix = CpuContention.CONTENTION + "the load generator and the broker shared CPUs " + first;
        assertTrue(warnings(r).stream().anyMatch(w -> w.startsWith(prefix)), warnings(r) + "\n" + run);
        assertTrue(r.get("loadGenerator").get("bottleneckSuspected").asBoolean(), r.get("loadGenerator").toString());
        assertTrue(r.get("cpu").get("contention").asBoolean(), r.get("cpu").toString());
        assertEquals(first, r.get("cpu").get("sharedCpus").asText());
        assertTrue(run.out.contains("  warning: " + prefix), run.out);
        assertEquals("auto: sleep, the producers share CPUs " + first + " with the broker",
                r.get("loadGenerator").get("spinWindowChoice").asText());
        assertEquals(0.0, r.get("loadGenerator").get("spinWindowMicros").asDouble());
    }

    @Test
    void theSameRunPinnedApartWithoutTheBusyLoopDoesNotWarn() throws Exception {
        // the suite's machines have two CPUs at least (the README's test command runs on 2 cores)
        assertFalse(first.equals(last), "pinning apart needs two CPUs; this JVM may use " + allowed);
        Path out = dir.resolve("apart");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--broker-cpus", first, "--cpus", last, "--rate", "1000",
                "--duration", "3s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        // other processes may keep this machine busy (CI's other test JVM): that is a warning of another kind
        assertTrue(warnings(r).stream().noneMatch(w -> w.startsWith(CpuContention.CONTENTION)), warnings(r).toString());
        assertFalse(r.get("loadGenerator").get("bottleneckSuspected").asBoolean(), r.get("loadGenerator").toString());
        assertFalse(r.get("cpu").get("contention").asBoolean());
        assertTrue(r.get("cpu").get("sharedCpus").isNull());
        assertEquals(last, r.get("cpu").get("loadGeneratorCpus").asText());
        assertEquals(first, r.get("cpu").get("brokerCpus").asText());
        assertEquals(1, r.get("cpu").get("broker").get("nodeCores").size());
        assertEquals(CpuAffinity.online().size(), r.get("cpu").get("machine").get("cores").asInt());
        assertEquals("auto: spin, the load generator's CPUs (" + last + ") are apart from the broker's (" + first + ")",
                r.get("loadGenerator").get("spinWindowChoice").asText());
        assertEquals(80.0, r.get("loadGenerator").get("spinWindowMicros").asDouble());
        List<String> rows = Files.readAllLines(out.resolve("intervals.csv"));
        assertTrue(rows.get(1).endsWith(",cpuBusyShare,cpuStealShare,generatorCores,brokerCores"), rows.get(1));
        assertTrue(rows.get(2).matches(".*,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+"), rows.get(2));
        assertTrue(run.out.contains("  cpu over the measured "), run.out);
    }

    private static List<String> warnings(JsonNode result) {
        List<String> warnings = new ArrayList<>();
        result.get("warnings").forEach(w -> warnings.add(w.asText()));
        return warnings;
    }

    /** Threads of this JVM that keep a CPU busy until stopped. */
    private static final class BusyLoop {
        private volatile boolean stopped;
        private final List<Thread> threads = new ArrayList<>();

        BusyLoop(int threadCount) {
            for (int i = 0; i < threadCount; i++) {
                Thread t = new Thread(() -> {
                    long n = 0;
                    while (!stopped) {
                        n++;
                    }
                    if (n == 42) {
                        System.out.print("");
                    }
                }, "busy-loop-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        void stop() throws InterruptedException {
            stopped = true;
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
