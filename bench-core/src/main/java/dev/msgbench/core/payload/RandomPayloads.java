package dev.msgbench.core.payload;

import java.util.SplittableRandom;

/**
 * Random message bodies, so that no compressor (client, broker or disk) can flatter a system.
 *
 * <p>IMPLEMENTATION NOTES: generating fresh random bytes for every message costs more than the
 * rest of the send path together. Instead each message copies a slice of a pool of random
 * bytes much larger than a message or a batch ({@link BodySource}). One pool serves all streams
 * of a run (it is never written after construction); each stream starts at its own random
 * point, so two streams' messages in one batch share content only if their points happen to be
 * close, which is too rare for a compressor to gain from.
 */
public final class RandomPayloads {

    private static final int MIN_POOL_BYTES = 8 << 20;
    private static final int SLICES_PER_POOL = 16;

    private final byte[] pool;
    private final int messageSizeBytes;
    private final MessageSizes sizes;
    private final double randomShare;

    public RandomPayloads(int messageSizeBytes, long seed) {
        this(MessageSizes.fixed(messageSizeBytes), seed);
    }

    /** Bodies for messages of these sizes; the pool holds the largest many times over. */
    public RandomPayloads(MessageSizes sizes, long seed) {
        this(sizes, seed, 1);
    }

    /**
     * Bodies of which only a share is random, the rest zeros ({@code --payload compressible:R}).
     *
     * @param randomShare 0 to 1; 1 for bodies random throughout
     */
    public RandomPayloads(MessageSizes sizes, long seed, double randomShare) {
        int messageSizeBytes = sizes.maxBytes();
        if (sizes.minBytes() < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("message size " + sizes.minBytes() + " is smaller than the header");
        }
        if (!(randomShare >= 0 && randomShare <= 1)) {
            throw new IllegalArgumentException("random share from 0 to 1, got " + randomShare);
        }
        this.sizes = sizes;
        this.randomShare = randomShare;
        this.messageSizeBytes = messageSizeBytes;
        long poolBytes = Math.max(MIN_POOL_BYTES, (long) messageSizeBytes * SLICES_PER_POOL);
        this.pool = new byte[(int) Math.min(poolBytes, Integer.MAX_VALUE - 8)];
        fillRandom(pool, new SplittableRandom(seed));
    }

    /** The largest message of the run. */
    public int messageSizeBytes() {
        return messageSizeBytes;
    }

    /** Whether every message has the one size. */
    public boolean fixedSize() {
        return sizes.isFixed();
    }

    /** One stream's message arrays, of the sizes drawn for it from {@code seed}. */
    public MessageBuffers buffers(long seed) {
        return new MessageBuffers(sizes, seed);
    }

    /** A message buffer of the run's largest size; the header and body are written later. */
    public byte[] newMessage() {
        return new byte[messageSizeBytes];
    }

    /** The bodies of one producer stream; each stream has its own, with its own seed. */
    public BodySource source(long seed) {
        return new BodySource(pool, messageSizeBytes - PayloadHeader.BYTES, randomShare, seed);
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
