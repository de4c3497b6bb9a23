package dev.msgbench.redis;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * XADD key MAXLEN ~ N * m MESSAGE (with record keys XADD key MAXLEN ~ N * k KEY m MESSAGE) on a
 * connection of its own or shared with the other streams of its thread ({@link ProducerConnection});
 * with --acks all each XADD is followed by WAIT for every replica, pipelined behind it. While the
 * engine is behind its schedule the commands go out in batches ({@link CommandBatch}), WAITs among
 * them in the same order.
 *
 * <p>IMPLEMENTATION NOTES: WAIT blocks this connection on the server until the replicas have
 * caught up, so the XADDs pipelined behind it wait too: that is the price of synchronous
 * replication in Redis, and it shows in the latency, as it should. The message is copied because
 * lettuce encodes it on its I/O thread, after publish has returned.
 */
final class StreamPublisher implements Publisher {

    static final byte[] FIELD = {'m'};
    /** With record keys, the field whose value is the message's key, written before {@link #FIELD}. */
    static final byte[] KEY_FIELD = {'k'};
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final ProducerConnection connection;
    private final RedisAsyncCommands<byte[], byte[]> commands;
    private final byte[] key;
    /** Each record key's name, by key; null without keys. */
    private final byte[][] keyNames;
    private final XAddArgs trim;
    private final AckListener acks;
    private final RedisAcks mode;
    private final int replicas;
    private final long waitTimeoutMillis;
    private final CommandBatch batch;
    /** Replies come in order: when the last command is answered, all are. Written by the publishing thread. */
    private volatile CompletionStage<?> last = CompletableFuture.completedFuture(null);

    /**
     * @param keyNames with record keys, each key's name by key; null without
     * @param replicas with {@link RedisAcks#REPLICAS}: how many replicas WAIT must hear from
     */
    StreamPublisher(ProducerConnection connection, byte[] key, byte[][] keyNames, long maxlen,
                    AckListener acks, RedisAcks mode, int replicas, Duration waitTimeout, InFlight inFlight) {
        this.connection = connection;
        this.commands = connection.connection().async();
        this.key = key;
        this.keyNames = keyNames;
        this.trim = new XAddArgs().maxlen(maxlen).approximateTrimming();
        this.acks = acks;
        this.mode = mode;
        this.replicas = replicas;
        this.waitTimeoutMillis = waitTimeout.toMillis();
        this.batch = new CommandBatch(connection, inFlight);
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
        batch.acquire();
        add(commands.xadd(key, trim, Collections.singletonMap(FIELD, message.clone())).toCompletableFuture(),
                sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int recordKey, long sequence, long intendedSendNanos) throws InterruptedException {
        batch.acquire();
        add(commands.xadd(key, trim, KEY_FIELD, keyNames[recordKey], FIELD, message.clone()).toCompletableFuture(),
                sequence, intendedSendNanos);
    }

    /** Settles a message when its XADD (and WAIT) is answered. */
    private void add(CompletableFuture<String> added, long sequence, long intendedSendNanos) {
        last = added;
        if (mode != RedisAcks.REPLICAS) {
            added.whenComplete((id, error) -> {
                batch.release();
                if (error != null) {
                    // reported even with --acks 0: not a reply being counted but a message lost
                    acks.failed(sequence, intendedSendNanos, error);
                } else if (mode == RedisAcks.SERVER) {
                    acks.acked(sequence, intendedSendNanos);
                }
            });
            batch.added(1);
            return;
        }
        CompletableFuture<Long> waited = commands.waitForReplication(replicas, waitTimeoutMillis).toCompletableFuture();
        last = waited;
        added.whenComplete((id, addError) -> waited.whenComplete((count, waitError) -> {
            batch.release();
            if (addError != null) {
                acks.failed(sequence, intendedSendNanos, addError);
            } else if (waitError != null) {
                acks.failed(sequence, intendedSendNanos, waitError);
            } else if (count < replicas) {
                acks.failed(sequence, intendedSendNanos, new IllegalStateException("WAIT: " + count + " of "
                        + replicas + " replicas acknowledged within " + waitTimeoutMillis + " ms"));
            } else {
                acks.acked(sequence, intendedSendNanos);
            }
        }));
        batch.added(2);
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
