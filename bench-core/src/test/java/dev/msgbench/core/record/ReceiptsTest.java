package dev.msgbench.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Messages received together, counted as one by one, with each stream's lock released at the end. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReceiptsTest {

    /** Two topics, two subscriptions each: streams 0 and 2 go to topic 0, streams 1 and 3 to topic 1. */
    private final Accounting accounting = new Accounting(4, 2, 2, true);

    @Test
    void interleavedStreamsAreCountedAsIfReceivedOneByOne() {
        for (int stream = 0; stream < 4; stream++) {
            for (int s = 0; s < 3; s++) {
                accounting.countSent(stream);
            }
        }
        try (Accounting.Receipts receipts = accounting.receipts(0, 1)) {
            assertTrue(receipts.receive(0, 0, 0));
            assertTrue(receipts.receive(0, 1, 0));
            assertTrue(receipts.receive(2, 1, 0));
            assertTrue(receipts.receive(0, 2, 0));
            assertFalse(receipts.receive(0, 1, 0), "a copy");
            assertTrue(receipts.receive(2, 0, 0), "late within its lane: reordered, still counted");
            assertFalse(receipts.receive(1, 0, 0), "stream 1 goes to topic 1");
        }
        StreamSnapshot subscription1 = accounting.perSubscription().get(1).counts();
        assertEquals(5, subscription1.received());
        assertEquals(1, subscription1.duplicated());
        assertEquals(1, subscription1.reordered());
        assertEquals(0, accounting.perSubscription().get(0).counts().received(), "subscription 0 received nothing");
        assertEquals(1, accounting.foreign());
    }

    /** Another thread (a sample, another consumer) reads and receives the same streams afterwards. */
    @Test
    void closingReleasesTheLastStreamForOtherThreads() throws Exception {
        accounting.countSent(0);
        accounting.countSent(0);
        try (Accounting.Receipts receipts = accounting.receipts(0, 0)) {
            receipts.receive(0, 0, 0);
        }
        boolean received = CompletableFuture.supplyAsync(() -> accounting.receive(0, 0, 0, 1, 0)).get();
        assertTrue(received);
        assertEquals(2, CompletableFuture.supplyAsync(() -> accounting.perStream().get(0).received()).get());
    }
}
