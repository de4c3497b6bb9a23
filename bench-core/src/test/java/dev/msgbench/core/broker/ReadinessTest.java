package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ReadinessTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(10)
    void awaitReturnsOnceTheCheckPasses() {
        AtomicInteger probes = new AtomicInteger();

        Readiness.within(Duration.ofSeconds(5)).await("kafka node 1", dir.resolve("kafka-1.log"), List.of(),
                () -> {
                    if (probes.incrementAndGet() < 3) {
                        throw new IOException("connection refused");
                    }
                    return true;
                });

        assertEquals(3, probes.get());
    }

    @Test
    @Timeout(10)
    void aTimeoutNamesTheBrokerTheTimeAndTheLogFile() {
        UserError e = assertThrows(UserError.class, () -> Readiness.within(Duration.ofMillis(300))
                .await("kafka node 2", Path.of("/tmp/x/kafka-2.log"), List.of(), () -> false));

        assertEquals("kafka node 2 was not ready within 300 ms; see /tmp/x/kafka-2.log", e.getMessage());
    }

    @Test
    @Timeout(10)
    void aTimeoutInWholeSecondsIsStatedInSeconds() {
        assertEquals("60 s", Readiness.describe(Duration.ofSeconds(60)));
        assertEquals("1500 ms", Readiness.describe(Duration.ofMillis(1500)));
    }

    @Test
    @Timeout(10)
    void aWatchedProcessThatExitsFailsTheWaitAtOnceWithItsExitCode() {
        Path log = dir.resolve("node-3.log");
        ManagedProcess node = ManagedProcess.start(
                NativeCommand.of("test node 3", log, "sh", "-c", "echo bad config; exit 1"), dir.resolve("owned"));
        long started = System.nanoTime();

        UserError e = assertThrows(UserError.class, () -> Readiness.within(Duration.ofSeconds(60))
                .await("test cluster", dir, List.of(node), () -> false));

        assertEquals("test node 3 exited with code 1 during start; see " + log, e.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 5, "did not wait out the timeout");
    }
}
