package dev.msgbench.core.payload;

import java.util.HashMap;
import java.util.Map;

/**
 * One producer stream's message arrays, each exactly as long as the message it carries, so that
 * every driver sends {@code message.length} bytes. An array is reused for the next message of its
 * size (the engine reuses a message as soon as publish returns); with more sizes than are worth
 * keeping (a uniform range) each message gets a fresh array.
 *
 * <p>Not thread-safe: one per producer stream.
 */
public final class MessageBuffers {

    /** Sizes beyond this many are drawn from too wide a range to keep an array for each. */
    static final int MAX_KEPT_SIZES = 64;

    private final MessageSizes.Sampler sampler;
    private final byte[] only;
    private final Map<Integer, byte[]> bySize;

    MessageBuffers(MessageSizes sizes, long seed) {
        this.sampler = sizes.sampler(seed);
        this.only = sizes.isFixed() ? new byte[sizes.maxBytes()] : null;
        this.bySize = sizes.distinctSizes() <= MAX_KEPT_SIZES ? new HashMap<>() : null;
    }

    /** An array for the stream's next message, of the size drawn for it; the caller fills it. */
    public byte[] next() {
        if (only != null) {
            return only;
        }
        int size = sampler.next();
        return bySize == null ? new byte[size] : bySize.computeIfAbsent(size, byte[]::new);
    }
}
