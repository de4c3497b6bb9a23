package dev.msgbench.core.payload;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random bodies of one producer stream's messages: consecutive slices of the run's pool of
 * random bytes, from a random starting point, starting again at a random point when the pool
 * runs out. Consecutive messages therefore never share content, and the copy reads the pool in
 * order, which the hardware prefetches (random offsets cost a cache miss per message, the
 * largest part of the engine's per-message time for small messages).
 *
 * <p>With a random share below 1 ({@code --payload compressible:R}) only the first R of each body
 * comes from the pool and the rest is zeros, as OpenMessaging Benchmark's {@code randomBytesRatio}
 * lays them out.
 *
 * <p>Not thread-safe: one per producer stream.
 */
public final class BodySource {

    private final byte[] pool;
    /** The largest body: a random start leaves room for it. */
    private final int maxBodyBytes;
    /** The share of each body copied from the pool, 0 to 1; the rest is zeros. */
    private final double randomShare;
    private final SplittableRandom random;
    private int next;

    BodySource(byte[] pool, int maxBodyBytes, double randomShare, long seed) {
        this.pool = pool;
        this.maxBodyBytes = maxBodyBytes;
        this.randomShare = randomShare;
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
        int randomBytes = randomShare == 1 ? bodyBytes : randomBytes(bodyBytes);
        if (next > pool.length - randomBytes) {
            next = randomStart();
        }
        System.arraycopy(pool, next, message, PayloadHeader.BYTES, randomBytes);
        if (randomBytes < bodyBytes) {
            // the array may have carried another message before: its tail is zeroed every time
            Arrays.fill(message, PayloadHeader.BYTES + randomBytes, message.length, (byte) 0);
        }
        next += randomBytes;
    }

    /** How many bytes of a body this long are random. */
    int randomBytes(int bodyBytes) {
        return (int) Math.round(bodyBytes * randomShare);
    }

    private int randomStart() {
        return random.nextInt(pool.length - maxBodyBytes + 1);
    }
}
