package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.loopback.LoopbackSystem;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.ForwardingSystem;
import dev.msgbench.core.time.NanoClock;

/** Record keys through the loopback system: every message gets its key, the accounting stays exact. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyedRunTest {

    private static final int MESSAGES = 4_000;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private RunResult run(MessagingSystem system, RecordKeys keys) throws Exception {
        RunSpec config = new RunSpec("throughput", "loopback", new Pacing.Unpaced(MESSAGES, 0, Duration.ofSeconds(30),
                false), 100, 2, 1, 42, Duration.ofMillis(500), Duration.ofSeconds(5), dir, false, Map.of("local", true));
        return new LoadRun(config.withKeys(keys), system, NanoClock.system(),
                new PrintStream(out, true, StandardCharsets.UTF_8), null, false).execute();
    }

    @Test
    void everyMessageCarriesAKeyAndNoneIsLost() throws Exception {
        KeyCounting system = new KeyCounting(new LoopbackSystem());

        RunResult r = run(system, RecordKeys.parse("round-robin", 7));

        assertEquals(MESSAGES, r.counts().sent());
        assertEquals(MESSAGES, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        long total = 0;
        for (int k = 0; k < 7; k++) {
            // each of the two streams takes the keys in turn: 2,000 messages each, 285 or 286 per key
            assertTrue(system.perKey.get(k) == 2 * 285 || system.perKey.get(k) == 2 * 286, "key " + k + ": "
                    + system.perKey.get(k));
            total += system.perKey.get(k);
        }
        assertEquals(MESSAGES, total);
        assertEquals("round-robin", r.workload().keys());
        assertEquals(7, r.workload().keyCount());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\nkeys: round-robin over 7 keys\n"), out.toString());
    }

    @Test
    void theSameSeedSendsTheSameKeys() throws Exception {
        KeyCounting first = new KeyCounting(new LoopbackSystem());
        KeyCounting second = new KeyCounting(new LoopbackSystem());

        run(first, RecordKeys.parse("zipf:1.2", 7));
        run(second, RecordKeys.parse("zipf:1.2", 7));

        assertEquals(first.perKey.toString(), second.perKey.toString());
        assertTrue(first.perKey.get(0) > first.perKey.get(6), first.perKey.toString());
    }

    @Test
    void aRunWithoutKeysRecordsNone() throws Exception {
        RunResult r = run(new LoopbackSystem(), RecordKeys.NONE);

        assertEquals("none", r.workload().keys());
        assertEquals(0, r.workload().keyCount());
    }

    @Test
    void aSystemWhereKeysChangeNothingRefusesThemBeforeTheRun() {
        MessagingSystem keyless = new KeyCounting(new LoopbackSystem()) {
            @Override
            public String useKeys(RecordKeys keys) {
                return "it has no keys";
            }
        };

        UserError e = assertThrows(UserError.class, () -> run(keyless, RecordKeys.parse("random", 10)));

        assertEquals("keys random does not work with loopback: it has no keys; give keys none", e.getMessage());
    }

    /** The loopback system, counting the keys its publishers were given. */
    private static class KeyCounting extends ForwardingSystem {

        final AtomicLongArray perKey = new AtomicLongArray(7);

        KeyCounting(MessagingSystem inner) {
            super(inner);
        }

        @Override
        public Publisher publisher(int streamId, AckListener acks) throws Exception {
            Publisher publisher = system.publisher(streamId, acks);
            return new Publisher() {
                @Override
                public void publish(byte[] message, long sequence, long intendedSendNanos) {
                    throw new AssertionError("a message without its key");
                }

                @Override
                public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
                    perKey.incrementAndGet(key);
                    publisher.publish(message, key, sequence, intendedSendNanos);
                }

                @Override
                public void close() throws Exception {
                    publisher.close();
                }
            };
        }
    }
}
