package dev.msgbench.core.payload;

/**
 * The payloads of a run, whatever they hold ({@link PayloadContent}): where each producer thread
 * gets its messages from.
 */
public final class Payloads {

    private static final long SIZE_SEED = 0x5DEECE66DL;

    private final PayloadContent content;
    private final MessageSizes sizes;
    /** The pool of random and compressible bodies; null for files, which need none. */
    private final RandomPayloads random;

    private Payloads(PayloadContent content, MessageSizes sizes, RandomPayloads random) {
        this.content = content;
        this.sizes = sizes;
        this.random = random;
    }

    /**
     * @param sizes for files, the files' own ({@link PayloadContent.FromFiles#sizes()}); the run's
     *              {@code --size} otherwise
     * @param seed  of the pool of random bytes
     */
    public static Payloads of(PayloadContent content, MessageSizes sizes, long seed) {
        if (content instanceof PayloadContent.FromFiles files) {
            if (!files.sizes().spec().equals(sizes.spec())) {
                throw new IllegalArgumentException("the sizes of file payloads are the files': " + files.sizes()
                        + ", not " + sizes);
            }
            return new Payloads(content, sizes, null);
        }
        double share = content instanceof PayloadContent.Compressible c ? c.randomShare() : 1;
        return new Payloads(content, sizes, new RandomPayloads(sizes, seed, share));
    }

    /** Random bodies of these sizes, as {@link #of} makes them for {@code random}. */
    public static Payloads of(RandomPayloads random) {
        return new Payloads(PayloadContent.RANDOM, null, random);
    }

    /** The largest message of the run. */
    public int messageSizeBytes() {
        return random != null ? random.messageSizeBytes() : sizes.maxBytes();
    }

    /** Whether every message has the one size. */
    public boolean fixedSize() {
        return random != null ? random.fixedSize() : sizes.isFixed();
    }

    /** One producer thread's messages; the seed draws its sizes and where its bodies start in the pool. */
    public MessageSource messages(long seed) {
        if (random == null) {
            return new FileMessages((PayloadContent.FromFiles) content);
        }
        BodySource bodies = random.source(seed);
        // a seed of its own: the sizes stay the same whatever the bodies draw
        MessageBuffers buffers = random.buffers(seed ^ SIZE_SEED);
        return () -> {
            byte[] message = buffers.next();
            bodies.refill(message);
            return message;
        };
    }
}
