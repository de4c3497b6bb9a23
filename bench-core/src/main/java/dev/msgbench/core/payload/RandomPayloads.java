package dev.msgbench.core.payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Random message bodies, so that no compressor (client, broker or disk) can flatter a system.
 *
 * <p>IMPLEMENTATION NOTES: generating fresh random bytes for every message costs more than the
 * rest of the send path together. Instead each message copies a slice, at a random offset, of
 * a pool of random bytes, and XORs it with a random 64-bit key of its own. The key is what
 * defeats compression: two messages whose slices overlap still differ at every position
 * except where two key bytes happen to agree (1 in 256, isolated bytes, never a run a
 * compressor could match), and within one message the pool is random, so it stays random.
 * That lets the pool be small enough to stay in the CPU cache ({@link #POOL_BYTES}); an
 * earlier 8 MiB pool, which relied on offsets alone to keep a batch's messages apart, cost a
 * cache miss or two per message, more than everything else the engine does for it. One pool
 * serves all streams of a run (it is never written after construction); each stream draws
 * offsets and keys from its own generator.
 */
public final class RandomPayloads {

    /** Half a typical L2 cache: stays warm beside the client's own working set. */
    static final int POOL_BYTES = 64 << 10;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] pool;
    private final int messageSizeBytes;

    public RandomPayloads(int messageSizeBytes, long seed) {
        if (messageSizeBytes < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("message size " + messageSizeBytes + " is smaller than the header");
        }
        this.messageSizeBytes = messageSizeBytes;
        // twice the body at least, so that large messages still start at many different offsets
        long poolBytes = Math.max(POOL_BYTES, 2L * messageSizeBytes);
        this.pool = new byte[(int) Math.min(poolBytes, Integer.MAX_VALUE - 8)];
        fillRandom(pool, new SplittableRandom(seed));
    }

    public int messageSizeBytes() {
        return messageSizeBytes;
    }

    /** A message buffer of the run's size, with a random body; the header is written later. */
    public byte[] newMessage() {
        return new byte[messageSizeBytes];
    }

    /** Replaces the body (everything after the header) of {@code message} with random bytes. */
    public void refill(byte[] message, SplittableRandom random) {
        int body = messageSizeBytes - PayloadHeader.BYTES;
        if (body <= 0) {
            return;
        }
        int from = random.nextInt(pool.length - body + 1);
        long key = random.nextLong();
        int to = PayloadHeader.BYTES;
        int i = 0;
        for (; i + Long.BYTES <= body; i += Long.BYTES) {
            LONGS.set(message, to + i, (long) LONGS.get(pool, from + i) ^ key);
        }
        for (; i < body; i++) {
            message[to + i] = (byte) (pool[from + i] ^ (key >>> ((i & 7) << 3)));
        }
    }

    private static void fillRandom(byte[] bytes, SplittableRandom random) {
        int i = 0;
        for (; i + 8 <= bytes.length; i += 8) {
            long v = random.nextLong();
            for (int b = 0; b < 8; b++) {
                bytes[i + b] = (byte) (v >>> (b * 8));
            }
        }
        for (; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt();
        }
    }
}
