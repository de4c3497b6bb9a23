package dev.msgbench.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * PUBLISH on a connection of its own, or shared with the other streams of its thread
 * ({@link ProducerConnection}). Commands are pipelined: a publish never waits for the
 * server's reply, and while the engine is behind its schedule the commands go out in batches
 * ({@link CommandBatch}).
 *
 * <p>IMPLEMENTATION NOTES: the message is copied because lettuce encodes it on its I/O thread,
 * after publish has returned and the engine has reused the array.
 */
final class PubSubPublisher implements Publisher {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final ProducerConnection connection;
    private final RedisAsyncCommands<byte[], byte[]> commands;
    /** By key; one without keys. */
    private final byte[][] channels;
    private final String channelName;
    private final AckListener acks;
    private final RedisAcks mode;
    private final CommandBatch batch;
    /** Replies come in order: when the last command is answered, all are. Written by the publishing thread. */
    private volatile CompletionStage<?> last = CompletableFuture.completedFuture(null);

    /** @param channels the stream's channel, or with record keys its channel of each key, by key */
    PubSubPublisher(ProducerConnection connection, byte[][] channels, String channelName,
                    AckListener acks, RedisAcks mode, InFlight inFlight) {
        this.connection = connection;
        this.commands = connection.connection().async();
        this.channels = channels;
        this.channelName = channelName;
        this.acks = acks;
        this.mode = mode;
        this.batch = new CommandBatch(connection, inFlight);
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
        publish(message, 0, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws InterruptedException {
        batch.acquire();
        RedisFuture<Long> reply = commands.publish(channels[key], message.clone());
        last = reply;
        reply.whenComplete((receivers, error) -> {
            batch.release();
            if (error != null) {
                // a failure is reported even with --acks 0: it is not a reply being counted but a message lost
                acks.failed(sequence, intendedSendNanos, error);
            } else if (mode != RedisAcks.NONE) {
                if (receivers == 0) {
                    acks.failed(sequence, intendedSendNanos,
                            new IllegalStateException("PUBLISH to " + channelName + " reached no subscriber"));
                } else {
                    acks.acked(sequence, intendedSendNanos);
                }
            }
        });
        batch.added(1);
    }

    @Override
    public void endOfBurst() {
        batch.endOfBurst();
    }

    @Override
    public void flush() {
        batch.send();
    }

    /**
     * Sends what is still batched and waits for the last reply first: closing would cancel
     * commands unsent or awaiting a reply, and report them failed.
     */
    @Override
    public void close() throws Exception {
        batch.send();
        Replies.awaitQuietly(last, CLOSE_TIMEOUT);
        connection.release();
    }
}
