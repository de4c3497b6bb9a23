package dev.msgbench.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * What a producer stream on a lettuce connection does whatever its command (PUBLISH, {@link
 * PubSubPublisher}, or XADD, {@link StreamPublisher}): its commands are pipelined on a {@link
 * ProducerConnection} of its own or shared with the other streams of its thread, within its
 * in-flight permits and in batches ({@link CommandBatch}); each message is settled when its last
 * reply comes, acknowledged only when the replies are counted; and close waits for the last reply
 * before it lets go of the connection. What differs is the command, and what its reply says.
 *
 * <p>IMPLEMENTATION NOTES: the shared steps of the per-message path are final methods, so that
 * sharing them adds no virtual call per message; a subclass's {@code publish} calls them.
 */
abstract class LettucePublisher implements Publisher {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final ProducerConnection connection;
    protected final RedisAsyncCommands<byte[], byte[]> commands;
    private final AckListener acks;
    protected final RedisAcks mode;
    /** Take a permit before a message's commands are written; count them after. */
    protected final CommandBatch batch;
    /** Replies come in order: when the last command is answered, all are. Written by the publishing thread. */
    private volatile CompletionStage<?> last = CompletableFuture.completedFuture(null);

    LettucePublisher(ProducerConnection connection, AckListener acks, RedisAcks mode, InFlight inFlight) {
        this.connection = connection;
        this.commands = connection.connection().async();
        this.acks = acks;
        this.mode = mode;
        this.batch = new CommandBatch(connection, inFlight);
    }

    /** The reply to the command just written: close waits for it, and so for every reply before it. */
    protected final void lastIssued(CompletionStage<?> reply) {
        last = reply;
    }

    /**
     * A message's last reply has come: frees its in-flight permit, then reports the message failed
     * with {@code error}, or acknowledged when the replies are counted (not with --acks 0).
     *
     * @param error why a command of the message failed, or null when all succeeded
     */
    protected final void answered(long sequence, long intendedSendNanos, Throwable error) {
        batch.release();
        if (error != null) {
            // reported even with --acks 0: not a reply being counted but a message lost
            acks.failed(sequence, intendedSendNanos, error);
        } else if (mode != RedisAcks.NONE) {
            acks.acked(sequence, intendedSendNanos);
        }
    }

    /**
     * A message's last reply has come and says the message did not get where it had to (a PUBLISH
     * that reached no subscriber, a WAIT that too few replicas answered): frees its in-flight permit
     * and reports the message failed with {@code why}. Only when the replies are counted: with
     * --acks 0 such a reply is {@link #answered}.
     */
    protected final void unacknowledged(long sequence, long intendedSendNanos, Throwable why) {
        batch.release();
        acks.failed(sequence, intendedSendNanos, why);
    }

    @Override
    public final void endOfBurst() {
        batch.endOfBurst();
    }

    @Override
    public final void flush() {
        batch.send();
    }

    /**
     * Sends what is still batched and waits for the last reply first: closing would cancel
     * commands unsent or awaiting a reply, and report them failed.
     */
    @Override
    public final void close() throws Exception {
        batch.send();
        Replies.awaitQuietly(last, CLOSE_TIMEOUT);
        connection.release();
    }
}
