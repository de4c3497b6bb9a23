package dev.msgbench.redis;

import dev.msgbench.core.driver.AckListener;
import io.lettuce.core.RedisFuture;

/**
 * PUBLISH on a connection of its own, or shared with the other streams of its thread
 * ({@link ProducerConnection}). Commands are pipelined: a publish never waits for the
 * server's reply, and while the engine is behind its schedule the commands go out in batches
 * ({@link CommandBatch}).
 *
 * <p>IMPLEMENTATION NOTES: the message is copied because lettuce encodes it on its I/O thread,
 * after publish has returned and the engine has reused the array.
 */
final class PubSubPublisher extends LettucePublisher {

    /** By key; one without keys. */
    private final byte[][] channels;
    private final String channelName;

    /** @param channels the stream's channel, or with record keys its channel of each key, by key */
    PubSubPublisher(ProducerConnection connection, byte[][] channels, String channelName,
                    AckListener acks, RedisAcks mode, InFlight inFlight) {
        super(connection, acks, mode, inFlight);
        this.channels = channels;
        this.channelName = channelName;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
        publish(message, 0, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws InterruptedException {
        batch.acquire();
        RedisFuture<Long> reply = commands.publish(channels[key], message.clone());
        lastIssued(reply);
        reply.whenComplete((receivers, error) -> {
            if (error == null && mode != RedisAcks.NONE && receivers == 0) {
                unacknowledged(sequence, intendedSendNanos,
                        new IllegalStateException("PUBLISH to " + channelName + " reached no subscriber"));
            } else {
                answered(sequence, intendedSendNanos, error);
            }
        });
        batch.added(1);
    }
}
