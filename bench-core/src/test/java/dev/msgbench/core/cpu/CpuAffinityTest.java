package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.Setting;

/**
 * The real kernel: this test JVM is pinned for a moment and put back, so that the rest of the
 * run keeps every core.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CpuAffinityTest {

    @Test
    void theOnlineCpusAreTheMachinesNotTheJvms() throws IOException {
        String online = Files.readString(Path.of("/sys/devices/system/cpu/online"), StandardCharsets.US_ASCII).trim();
        assertEquals(CpuList.parse(online), CpuAffinity.online());
    }

    @Test
    void aCpuTheMachineLacksIsNamedWithTheOnlineOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CpuAffinity.requireOnline(CpuList.parse("0,4000-4001"), "0,4000-4001"));
        assertEquals("'0,4000-4001' names CPUs 4000, 4001, which this machine does not have (online CPUs: "
                + CpuAffinity.online() + ")", e.getMessage());
    }

    @Test
    void pinningMovesEveryThreadIncludingLaterOnesAndClosingPutsThemBack() throws Exception {
        CpuList before = CpuAffinity.allowedForThisJvm();
        CpuList first = CpuList.parse(Integer.toString(before.cpus().get(0)));
        AtomicReference<String> startedWhilePinned = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = new Thread(() -> awaitQuietly(release), "started before the pin");
        waiting.start();
        try (PinnedJvm pinned = PinnedJvm.pin(first, Setting.CPUS)) {
            assertEquals(before, pinned.before());
            assertEquals(List.of(first.toString()), distinctMasksOfThisJvm());
            Thread later = new Thread(() -> startedWhilePinned.set(maskOf(Path.of("/proc/thread-self/status"))));
            later.start();
            later.join();
            assertEquals(first.toString(), startedWhilePinned.get(), "threads started later inherit");
        } finally {
            release.countDown();
            waiting.join();
        }
        assertEquals(List.of(before.toString()), distinctMasksOfThisJvm(), "every thread is back");
    }

    /**
     * taskset -a stops with "No such process" at a thread that ended after it listed the threads;
     * CI met it on a busy machine. Threads that start and end all the time make it likely.
     */
    @Test
    void pinningSucceedsWhileThreadsStartAndEndAllTheTime() throws Exception {
        CpuList before = CpuAffinity.allowedForThisJvm();
        CpuList first = CpuList.parse(Integer.toString(before.cpus().get(0)));
        AtomicBoolean churning = new AtomicBoolean(true);
        Thread churner = new Thread(() -> {
            while (churning.get()) {
                Thread shortLived = new Thread(() -> { });
                shortLived.start();
                try {
                    shortLived.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "churner");
        churner.start();
        try {
            for (int i = 0; i < 20; i++) {
                try (PinnedJvm pinned = PinnedJvm.pin(first, Setting.CPUS)) {
                    assertEquals(before, pinned.before());
                }
            }
        } finally {
            churning.set(false);
            churner.join();
        }
        assertEquals(List.of(before.toString()), distinctMasksOfThisJvm(), "every thread is back");
    }

    @Test
    void aThreadThatEndedIsNoFailureOfTasksetButAnyOtherErrorIs() {
        assertEquals(null, CpuAffinity.failure("taskset: failed to set pid 12's affinity: No such process\n"
                + "pid 11's current affinity list: 0,1\npid 11's new affinity list: 0\n"));
        assertEquals("taskset: failed to set pid 11's affinity: Invalid argument", CpuAffinity.failure(
                "taskset: failed to set pid 11's affinity: Invalid argument\npid 11's current affinity list: 0,1\n"));
        assertEquals("taskset: bad usage", CpuAffinity.failure("taskset: bad usage"));
        assertEquals("something else", CpuAffinity.failure("pid 3\nsomething else\n"));
        // exit 1 with only the lists, seen in CI on 2026-11-24 while threads came and went
        assertEquals(null, CpuAffinity.failure("pid 25211's current affinity list: 0\n"));
        // exit 1 with a blank line among the lists, seen in CI on 2026-11-25
        assertEquals(null, CpuAffinity.failure("pid 22120's current affinity list: 0\n\npid 22121's current affinity list: 0\n"));
    }

    /** Cpus_allowed_list of every thread of this JVM, without repeats. */
    private static List<String> distinctMasksOfThisJvm() throws IOException {
        List<String> masks = new ArrayList<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc/self/task"))) {
            for (Path thread : threads.toList()) {
                String mask = maskOf(thread.resolve("status"));
                // null: the thread ended meanwhile
                if (mask != null && !masks.contains(mask)) {
                    masks.add(mask);
                }
            }
        }
        return masks;
    }

    private static String maskOf(Path status) {
        try {
            return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring("Cpus_allowed_list:".length()).trim()).findFirst().orElseThrow();
        } catch (IOException e) {
            return null;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
