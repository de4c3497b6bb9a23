package dev.msgbench.redis;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;

import dev.msgbench.core.driver.AckListener;
import io.lettuce.core.XAddArgs;

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
final class StreamPublisher extends LettucePublisher {

    static final byte[] FIELD = {'m'};
    /** With record keys, the field whose value is the message's key, written before {@link #FIELD}. */
    static final byte[] KEY_FIELD = {'k'};

    private final byte[] key;
    /** Each record key's name, by key; null without keys. */
    private final byte[][] keyNames;
    private final XAddArgs trim;
    private final int replicas;
    private final long waitTimeoutMillis;

    /**
     * @param keyNames with record keys, each key's name by key; null without
     * @param replicas with {@link RedisAcks#REPLICAS}: how many replicas WAIT must hear from
     */
    StreamPublisher(ProducerConnection connection, byte[] key, byte[][] keyNames, long maxlen,
                    AckListener acks, RedisAcks mode, int replicas, Duration waitTimeout, InFlight inFlight) {
        super(connection, acks, mode, inFlight);
        this.key = key;
        this.keyNames = keyNames;
        this.trim = new XAddArgs().maxlen(maxlen).approximateTrimming();
        this.replicas = replicas;
        this.waitTimeoutMillis = waitTimeout.toMillis();
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
        lastIssued(added);
        if (mode != RedisAcks.REPLICAS) {
            added.whenComplete((id, error) -> answered(sequence, intendedSendNanos, error));
            batch.added(1);
            return;
        }
        CompletableFuture<Long> waited = commands.waitForReplication(replicas, waitTimeoutMillis).toCompletableFuture();
        lastIssued(waited);
        added.whenComplete((id, addError) -> waited.whenComplete((count, waitError) -> {
            if (addError != null) {
                answered(sequence, intendedSendNanos, addError);
            } else if (waitError != null) {
                answered(sequence, intendedSendNanos, waitError);
            } else if (count < replicas) {
                unacknowledged(sequence, intendedSendNanos, new IllegalStateException("WAIT: " + count + " of "
                        + replicas + " replicas acknowledged within " + waitTimeoutMillis + " ms"));
            } else {
                answered(sequence, intendedSendNanos, null);
            }
        }));
        batch.added(2);
    }
}
