package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Which sequences of one stream the system acknowledged and which a consumer received, exactly,
 * for the whole run: what tells a broken promise (acknowledged, never received) from an allowed
 * loss (never acknowledged, or failed) when the run ends.
 *
 * <p>IMPLEMENTATION NOTES: two bits per message, in chunks of {@link #CHUNK_MESSAGES}. The
 * stream's one producer thread adds a chunk when its first sequence is sent ({@link #sending}),
 * so neither acknowledgements nor receipts allocate, and a sequence is always in a chunk by the
 * time it can be acknowledged or received. Acknowledgements come from client threads and set
 * their bit with one atomic OR; receipts come under the stream's tracker lock and set theirs with
 * a plain store. A chunk whose every message was received can hold no loss and is let go, so the
 * memory follows the messages still missing, not the length of the run. The chunk table is
 * replaced, never changed in place where a reader might be: a reader sees an old table or a new
 * one, each complete up to the chunks it has.
 */
final class DeliveryLedger {

    /** Keeps nothing: for a run without consumers, which receives nothing and so loses nothing. */
    static final DeliveryLedger NONE = new DeliveryLedger(false);

    static final int CHUNK_SHIFT = 16;
    static final int CHUNK_MESSAGES = 1 << CHUNK_SHIFT;
    private static final int WORDS = CHUNK_MESSAGES / 64;
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    /** Chunk i covers sequences [i * CHUNK_MESSAGES, (i + 1) * CHUNK_MESSAGES); null once let go. */
    private volatile Chunk[] chunks = new Chunk[16];
    private int chunkCount;
    private final boolean keeping;

    DeliveryLedger() {
        this(true);
    }

    private DeliveryLedger(boolean keeping) {
        this.keeping = keeping;
    }

    private static final class Chunk {
        final long[] acked = new long[WORDS];
        final long[] received = new long[WORDS];
        /** Distinct messages received; written under the tracker lock only. */
        int receivedCount;
    }

    /** Called by the producer thread before {@code sequence} is handed to the client. */
    void sending(long sequence) {
        if ((sequence & (CHUNK_MESSAGES - 1)) != 0 || !keeping) {
            return;
        }
        Chunk[] table = chunks;
        if (chunkCount == table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        table[chunkCount++] = new Chunk();
        // a volatile store publishes the chunk before the message that needs it is sent
        chunks = table;
    }

    /** From any thread. */
    void acked(long sequence) {
        Chunk chunk = chunkOf(sequence);
        if (chunk != null) {
            WORD.getAndBitwiseOr(chunk.acked, wordOf(sequence), bitOf(sequence));
        }
    }

    /** Under the stream's tracker lock. */
    void received(long sequence) {
        Chunk chunk = chunkOf(sequence);
        if (chunk == null) {
            // a chunk let go was received whole: this is a copy
            return;
        }
        int word = wordOf(sequence);
        long bit = bitOf(sequence);
        if ((chunk.received[word] & bit) == 0) {
            chunk.received[word] |= bit;
            if (++chunk.receivedCount == CHUNK_MESSAGES) {
                chunks[(int) (sequence >>> CHUNK_SHIFT)] = null;
            }
        }
    }

    /**
     * The first {@code sent} sequences that were never received, split by whether they were
     * acknowledged; under the stream's tracker lock.
     */
    Losses losses(long sent) {
        Chunk[] table = chunks;
        long acknowledgedLost = 0;
        long missing = 0;
        for (int c = 0; c < table.length && (long) c << CHUNK_SHIFT < sent; c++) {
            Chunk chunk = table[c];
            if (chunk == null) {
                continue;
            }
            long first = (long) c << CHUNK_SHIFT;
            for (int w = 0; w < WORDS && first + 64L * w < sent; w++) {
                long inRange = sent - first - 64L * w >= 64 ? -1L : (1L << (sent - first - 64L * w)) - 1;
                long lost = ~chunk.received[w] & inRange;
                missing += Long.bitCount(lost);
                acknowledgedLost += Long.bitCount(lost & (long) WORD.getVolatile(chunk.acked, w));
            }
        }
        return new Losses(acknowledgedLost, missing - acknowledgedLost);
    }

    private Chunk chunkOf(long sequence) {
        Chunk[] table = chunks;
        long index = sequence >>> CHUNK_SHIFT;
        return sequence < 0 || index >= table.length ? null : table[(int) index];
    }

    private static int wordOf(long sequence) {
        return (int) (sequence & (CHUNK_MESSAGES - 1)) >>> 6;
    }

    private static long bitOf(long sequence) {
        return 1L << sequence;
    }
}
