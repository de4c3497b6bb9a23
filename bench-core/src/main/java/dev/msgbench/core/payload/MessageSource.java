package dev.msgbench.core.payload;

/**
 * The messages of one producer thread, body written: the thread writes the header over the first
 * {@value PayloadHeader#BYTES} bytes, sends it, and may reuse nothing of it once publish returns.
 *
 * <p>Not thread-safe: one per producer thread.
 */
@FunctionalInterface
public interface MessageSource {

    /** An array exactly as long as the next message, its body written; the header is the caller's to write. */
    byte[] next();
}
