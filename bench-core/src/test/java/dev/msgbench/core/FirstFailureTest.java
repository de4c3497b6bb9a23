package dev.msgbench.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FirstFailureTest {

    @Test
    void nothingFailedReportsNothing() {
        FirstFailure failures = new FirstFailure();

        assertNull(failures.first());
        assertEquals(0, failures.count());
        assertNull(failures.reported("the connection of s"));
        assertDoesNotThrow(() -> failures.throwIfAny("the connection of s"));
    }

    @Test
    void theFirstIsKeptAndRethrownWithTheCountOfTheLaterOnes() {
        FirstFailure failures = new FirstFailure();
        IOException first = new IOException("the server closed p-0");
        failures.add(first);
        failures.add(new IOException("Broken pipe"));
        failures.add(new IllegalStateException("later"));

        assertSame(first, failures.first());
        assertEquals(3, failures.count());
        IOException e = assertThrows(IOException.class, () -> failures.throwIfAny("the connection of s"));
        assertEquals("the connection of s failed: the server closed p-0 (and 2 later failures)", e.getMessage());
        assertSame(first, e.getCause());
    }

    @Test
    void oneFailureIsReportedWithoutACount() {
        FirstFailure failures = new FirstFailure();
        failures.add(new IOException("NATS server error on p-0: 'Maximum Payload Violation'"));

        assertEquals("p-0 failed: NATS server error on p-0: 'Maximum Payload Violation'",
                failures.reported("p-0").getMessage());
    }

    @Test
    void manyThreadsFailingAtOnceLeaveOneFirstAndEveryCount() throws Exception {
        FirstFailure failures = new FirstFailure();
        int threads = 4;
        int each = 10_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        List<Throwable> added = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < each; i++) {
                    Throwable failure = new IOException("failure " + i);
                    if (i == 0) {
                        added.add(failure);
                    }
                    failures.add(failure);
                }
            });
            all.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : all) {
            thread.join();
        }

        assertEquals((long) threads * each, failures.count());
        assertTrue(added.contains(failures.first()), "the first is one thread's first");
    }
}
