package dev.msgbench.core.run;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.payload.MessageSource;
import dev.msgbench.core.payload.Payloads;
import dev.msgbench.core.payload.RandomPayloads;

/**
 * The message arrays, bodies and record of sizes of one producer thread, which every stream sent
 * from that thread draws from: a message array is free again once publish returns, so the streams
 * of one thread need one between them, where a thousand streams each with its own would hold a
 * thousand arrays.
 *
 * <p>Not thread-safe: one per producer thread.
 */
final class ProducerPayloads {

    final MessageSource messages;
    /** Sizes of the measured messages; null when every message has the one size. */
    final Histogram measuredSizes;

    ProducerPayloads(Payloads payloads, long seed) {
        this.messages = payloads.messages(seed);
        this.measuredSizes = payloads.fixedSize() ? null : new Histogram(payloads.messageSizeBytes(), 3);
    }

    /** Random bodies. */
    ProducerPayloads(RandomPayloads payloads, long seed) {
        this(Payloads.of(payloads), seed);
    }
}
