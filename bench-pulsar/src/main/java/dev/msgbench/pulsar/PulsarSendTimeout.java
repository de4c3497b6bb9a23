package dev.msgbench.pulsar;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.pulsar.client.api.ProducerBuilder;

import dev.msgbench.core.units.Durations;

/**
 * How long a producer's send may wait for the broker's receipt before the client fails it
 * (--pulsar-send-timeout, the producer's sendTimeout): Pulsar's default 30 s fails every send
 * while the bookies cannot reach their ack quorum (a bookie down with ensemble 3 of 3) for longer;
 * 0 never fails one, so that the run measures how long they waited instead.
 *
 * @param timeout the wait, in whole milliseconds (Pulsar's unit); zero for never
 */
record PulsarSendTimeout(Duration timeout) {

    /** pulsar-client's own default. */
    static final PulsarSendTimeout DEFAULT = new PulsarSendTimeout(Duration.ofSeconds(30));

    /**
     * @param text 0, or a time such as 30s or 2m, in whole milliseconds
     * @throws IllegalArgumentException naming the allowed values and {@code text}
     */
    static PulsarSendTimeout parse(String text) {
        Duration timeout;
        try {
            timeout = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            timeout = null;
        }
        if (timeout == null || timeout.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("must be 0 (never) or a time in whole milliseconds such as 30s or "
                    + "500ms, got '" + text + "'");
        }
        return new PulsarSendTimeout(timeout);
    }

    /** Sets it on {@code builder}, 0 included: the client reads 0 as never. */
    void applyTo(ProducerBuilder<byte[]> builder) {
        builder.sendTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()), TimeUnit.MILLISECONDS);
    }

    @Override
    public String toString() {
        return timeout.isZero() ? "0 (never)" : Durations.format(timeout);
    }
}
