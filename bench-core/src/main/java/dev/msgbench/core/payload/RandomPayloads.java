package dev.msgbench.core.payload;

import java.util.SplittableRandom;

/**
 * Random message bodies, so that no compressor (client, broker or disk) can flatter a system.
 *
 * <p>IMPLEMENTATION NOTES: generating fresh random bytes for every message costs more than the
 * rest of the send path together. Instead each message copies a slice, at a random offset, of
 * a pool of random bytes much larger than a message. Two messages in one batch then share
 * content only if their offsets happen to be close, which is too rare for a compressor to gain
 * from. One pool serves all streams of a run (it is never written after construction); each
 * stream picks offsets with its own generator.
 */
public final class RandomPayloads {

    private static final int MIN_POOL_BYTES = 8 << 20;
    private static final int SLICES_PER_POOL = 16;

    private final byte[] pool;
    private final int messageSizeBytes;

    public RandomPayloads(int messageSizeBytes, long seed) {
        if (messageSizeBytes < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("message size " + messageSizeBytes + " is smaller than the header");
        }
        this.messageSizeBytes = messageSizeBytes;
        long poolBytes = Math.max(MIN_POOL_BYTES, (long) messageSizeBytes * SLICES_PER_POOL);
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
        if (body > 0) {
            int from = random.nextInt(pool.length - body + 1);
            System.arraycopy(pool, from, message, PayloadHeader.BYTES, body);
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
