package dev.msgbench.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Which sequences of one stream the system acknowledged and which a consumer received, exactly,
 * for the whole run: what tells a broken promise (acknowledged, never received) from an allowed
 * loss (never acknowledged, or failed) when the run ends.
 *
 * <p>IMPLEMENTATION NOTES: two bits per message, in chunks of {@link #CHUNK_MESSAGES} (fewer for a slow stream). The
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

    static final int CHUNK_SHIFT = 16;
    static final int CHUNK_MESSAGES = 1 << CHUNK_SHIFT;
    /** The smallest chunk: one word of each kind, for a stream that sends a message every few seconds. */
    static final int MIN_CHUNK_SHIFT = 6;
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    /** Keeps nothing: for a run without consumers, which receives nothing and so loses nothing. */
    static final DeliveryLedger NONE = new DeliveryLedger(false, CHUNK_SHIFT);

    /** Chunk i covers sequences [i << chunkShift, (i + 1) << chunkShift); null once let go. */
    private volatile Chunk[] chunks = new Chunk[4];
    private int chunkCount;
    /** The chunk receipts went to last and its index, under the tracker lock: the next is nearly always there too. */
    private Chunk receiving;
    private long receivingIndex = -1;
    private final boolean keeping;
    private final int chunkShift;
    private final int chunkMessages;
    private final int words;
    /** Aborted messages found in chunks already let go, under the tracker lock. */
    private long abortedReceivedLetGo;

    DeliveryLedger() {
        this(true, CHUNK_SHIFT);
    }

    /** Chunks of {@code 1 << chunkShift} messages: small ones for a slow stream, whose first chunk is all it needs. */
    DeliveryLedger(int chunkShift) {
        this(true, chunkShift);
    }

    private DeliveryLedger(boolean keeping, int chunkShift) {
        if (chunkShift < MIN_CHUNK_SHIFT || chunkShift > CHUNK_SHIFT) {
            throw new IllegalArgumentException("chunk shift from " + MIN_CHUNK_SHIFT + " to " + CHUNK_SHIFT + ": "
                    + chunkShift);
        }
        this.keeping = keeping;
        this.chunkShift = chunkShift;
        this.chunkMessages = 1 << chunkShift;
        this.words = chunkMessages / 64;
    }

    private static final class Chunk {
        final long[] acked;
        final long[] received;
        /** Aborted on purpose (a transaction rolled back), written under the tracker lock; null until the first. */
        long[] aborted;

        Chunk(int words) {
            acked = new long[words];
            received = new long[words];
        }

        /** Distinct messages received; written under the tracker lock only. */
        int receivedCount;
    }

    /** Called by the producer thread before {@code sequence} is handed to the client. */
    void sending(long sequence) {
        if ((sequence & (chunkMessages - 1)) != 0 || !keeping) {
            return;
        }
        Chunk[] table = chunks;
        if (chunkCount == table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        table[chunkCount++] = new Chunk(words);
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
        long index = sequence >>> chunkShift;
        if (index != receivingIndex) {
            receiving = chunkOf(sequence);
            receivingIndex = index;
        }
        Chunk chunk = receiving;
        if (chunk == null) {
            // a chunk let go was received whole: this is a copy
            return;
        }
        int word = wordOf(sequence);
        long bit = bitOf(sequence);
        if ((chunk.received[word] & bit) == 0) {
            chunk.received[word] |= bit;
            // a chunk with aborted messages is kept: the count of those delivered is read from it at the end
            if (++chunk.receivedCount == chunkMessages && chunk.aborted == null) {
                chunks[(int) index] = null;
                receiving = null;
                receivingIndex = -1;
            }
        }
    }

    /**
     * Under the stream's tracker lock: the system aborted {@code sequence} on purpose, so it is not
     * expected; a chunk already let go was received whole, this message included.
     */
    void aborted(long sequence) {
        if (!keeping) {
            return;
        }
        Chunk chunk = chunkOf(sequence);
        if (chunk == null) {
            abortedReceivedLetGo++;
            return;
        }
        if (chunk.aborted == null) {
            chunk.aborted = new long[words];
        }
        chunk.aborted[wordOf(sequence)] |= bitOf(sequence);
    }

    /** Under the stream's tracker lock: messages aborted on purpose and received all the same. */
    long abortedReceived() {
        long count = abortedReceivedLetGo;
        for (Chunk chunk : chunks) {
            if (chunk != null && chunk.aborted != null) {
                for (int w = 0; w < words; w++) {
                    count += Long.bitCount(chunk.aborted[w] & chunk.received[w]);
                }
            }
        }
        return count;
    }

    /**
     * The first {@code sent} sequences that were never received, split by whether they were
     * acknowledged, leaving out those aborted on purpose; under the stream's tracker lock.
     */
    Losses losses(long sent) {
        Chunk[] table = chunks;
        long acknowledgedLost = 0;
        long missing = 0;
        for (int c = 0; c < table.length && (long) c << chunkShift < sent; c++) {
            Chunk chunk = table[c];
            if (chunk == null) {
                continue;
            }
            long first = (long) c << chunkShift;
            for (int w = 0; w < words && first + 64L * w < sent; w++) {
                long inRange = sent - first - 64L * w >= 64 ? -1L : (1L << (sent - first - 64L * w)) - 1;
                long lost = ~chunk.received[w] & inRange & (chunk.aborted == null ? -1L : ~chunk.aborted[w]);
                missing += Long.bitCount(lost);
                acknowledgedLost += Long.bitCount(lost & (long) WORD.getVolatile(chunk.acked, w));
            }
        }
        return new Losses(acknowledgedLost, missing - acknowledgedLost);
    }

    private Chunk chunkOf(long sequence) {
        Chunk[] table = chunks;
        long index = sequence >>> chunkShift;
        return sequence < 0 || index >= table.length ? null : table[(int) index];
    }

    private int wordOf(long sequence) {
        return (int) (sequence & (chunkMessages - 1)) >>> 6;
    }

    private static long bitOf(long sequence) {
        return 1L << sequence;
    }
}
