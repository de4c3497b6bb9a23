package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

class ProbeBatchesTest {

    @Test
    void theFirstStreamOfAConnectionToAskClaimsEveryStreamOfThatConnection() {
        ProbeBatches batches = new ProbeBatches(10, 3);

        assertArrayEquals(new int[] {1, 4, 7}, batches.claim(7), "asked out of order: the whole batch still");
        assertArrayEquals(new int[0], batches.claim(1));
        assertArrayEquals(new int[0], batches.claim(4));
        assertArrayEquals(new int[] {0, 3, 6, 9}, batches.claim(0));
        assertArrayEquals(new int[] {2, 5, 8}, batches.claim(2));
    }

    @Test
    void aConnectionWithMoreStreamsThanABatchIsProvenInBatchesThatTogetherHoldEachStreamOnce() {
        int streams = 2 * ProbeBatches.BATCH * 2 + 3;
        ProbeBatches batches = new ProbeBatches(streams, 2);
        BitSet seen = new BitSet();
        int claimed = 0;
        for (int s = 0; s < streams; s++) {
            int[] batch = batches.claim(s);
            if (batch.length > 0) {
                claimed++;
                assertTrue(batch.length <= ProbeBatches.BATCH, "batch of " + batch.length);
                assertEquals(s, batch[0], "claimed by its first stream when asked in order");
            }
            for (int member : batch) {
                assertEquals(s % 2, member % 2, "one connection's streams only");
                assertFalse(seen.get(member), "stream " + member + " twice");
                seen.set(member);
            }
        }
        assertEquals(streams, seen.cardinality());
        assertEquals(6, claimed, "2 full batches and a last of 2 or 1 stream, per connection");
    }

    @Test
    void streamsOfTheirOwnConnectionsAreEachABatchOfOne() {
        ProbeBatches batches = new ProbeBatches(3, 3);

        assertArrayEquals(new int[] {2}, batches.claim(2));
        assertArrayEquals(new int[] {0}, batches.claim(0));
    }

    @Test
    void aBatchIsProvenOnlyOnceItIsRecordedSo() {
        ProbeBatches batches = new ProbeBatches(4, 2);
        int[] batch = batches.claim(0);

        assertFalse(batches.proven(2));
        batches.proved(batch);
        assertTrue(batches.proven(0));
        assertTrue(batches.proven(2));
        assertFalse(batches.proven(1));
    }
}
