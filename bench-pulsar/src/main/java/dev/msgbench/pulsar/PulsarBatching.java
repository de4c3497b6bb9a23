package dev.msgbench.pulsar;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.pulsar.client.api.ProducerBuilder;

import dev.msgbench.core.units.Durations;

/**
 * A producer's batching (--pulsar-batching): Pulsar's own defaults (on, a batch sent at the latest
 * 1 ms after its first message, at most 1000 messages or 128 KiB), off (each message a send of its
 * own: the lowest latency at a low rate), or on with another longest delay.
 *
 * @param enabled  false for off
 * @param maxDelay the longest a message waits for its batch; null for the client's default
 */
record PulsarBatching(boolean enabled, Duration maxDelay) {

    static final PulsarBatching DEFAULT = new PulsarBatching(true, null);
    static final PulsarBatching OFF = new PulsarBatching(false, null);

    /**
     * @param text off, default, or a time such as 100us or 5ms
     * @throws IllegalArgumentException naming the allowed values and {@code text}
     */
    static PulsarBatching parse(String text) {
        switch (text) {
            case "off":
                return OFF;
            case "default":
                return DEFAULT;
            default:
                try {
                    Duration delay = Durations.parse(text);
                    if (delay.isZero() || delay.isNegative()) {
                        throw new IllegalArgumentException("zero");
                    }
                    return new PulsarBatching(true, delay);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("must be off, default or the longest delay of a batch such "
                            + "as 100us or 5ms, got '" + text + "'");
                }
        }
    }

    /** Sets what was asked on {@code builder}; the client's defaults stay where nothing was. */
    void applyTo(ProducerBuilder<byte[]> builder) {
        builder.enableBatching(enabled);
        if (enabled && maxDelay != null) {
            builder.batchingMaxPublishDelay(TimeUnit.NANOSECONDS.toMicros(maxDelay.toNanos()), TimeUnit.MICROSECONDS);
        }
    }

    @Override
    public String toString() {
        return !enabled ? "off" : maxDelay == null ? "default" : TimeUnit.NANOSECONDS.toMicros(maxDelay.toNanos()) + "us";
    }
}
