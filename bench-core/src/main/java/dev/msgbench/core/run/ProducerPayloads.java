package dev.msgbench.core.run;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.MessageBuffers;
import dev.msgbench.core.payload.RandomPayloads;

/**
 * The message arrays, random bodies and record of sizes of one producer thread, which every
 * stream sent from that thread draws from: a message array is free again once publish returns, so
 * the streams of one thread need one between them, where a thousand streams each with its own
 * would hold a thousand arrays.
 *
 * <p>Not thread-safe: one per producer thread.
 */
final class ProducerPayloads {

    private static final long SIZE_SEED = 0x5DEECE66DL;

    final BodySource bodies;
    final MessageBuffers buffers;
    /** Sizes of the measured messages; null when every message has the one size. */
    final Histogram measuredSizes;

    ProducerPayloads(RandomPayloads payloads, long seed) {
        this.bodies = payloads.source(seed);
        // a seed of its own: the sizes stay the same whatever the bodies draw
        this.buffers = payloads.buffers(seed ^ SIZE_SEED);
        this.measuredSizes = payloads.fixedSize() ? null : new Histogram(payloads.messageSizeBytes(), 3);
    }

    /** Bytes one thread's payloads take: a message array of the largest size, a size record where sizes vary. */
    static long bytesPerThread(RandomPayloads payloads) {
        return payloads.messageSizeBytes() + (payloads.fixedSize() ? 0 : 32L * 1024) + 256;
    }
}
