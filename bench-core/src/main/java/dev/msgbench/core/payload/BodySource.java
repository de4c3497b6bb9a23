package dev.msgbench.core.payload;

import java.util.SplittableRandom;

/**
 * The random bodies of one producer stream's messages: consecutive slices of the run's pool of
 * random bytes, from a random starting point, starting again at a random point when the pool
 * runs out. Consecutive messages therefore never share content, and the copy reads the pool in
 * order, which the hardware prefetches (random offsets cost a cache miss per message, the
 * largest part of the engine's per-message time for small messages).
 *
 * <p>Not thread-safe: one per producer stream.
 */
public final class BodySource {

    private final byte[] pool;
    /** The largest body: a random start leaves room for it. */
    private final int maxBodyBytes;
    private final SplittableRandom random;
    private int next;

    BodySource(byte[] pool, int maxBodyBytes, long seed) {
        this.pool = pool;
        this.maxBodyBytes = maxBodyBytes;
        this.random = new SplittableRandom(seed);
        this.next = randomStart();
    }

    /**
     * Replaces the body (everything after the header) of {@code message} with the next slice;
     * the message may be shorter than the largest, never longer.
     */
    public void refill(byte[] message) {
        int bodyBytes = message.length - PayloadHeader.BYTES;
        if (bodyBytes == 0) {
            return;
        }
        if (next > pool.length - bodyBytes) {
            next = randomStart();
        }
        System.arraycopy(pool, next, message, PayloadHeader.BYTES, bodyBytes);
        next += bodyBytes;
    }

    private int randomStart() {
        return random.nextInt(pool.length - maxBodyBytes + 1);
    }
}
