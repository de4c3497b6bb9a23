package dev.msgbench.redis.direct;

import static dev.msgbench.redis.resp.Resp.ascii;

import java.io.IOException;
import java.time.Duration;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.redis.resp.Resp;
import dev.msgbench.redis.resp.RespConnection;

/**
 * XADD key MAXLEN ~ N * m MESSAGE written by the producer's own thread ({@code --redis-client
 * direct}), with record keys XADD key MAXLEN ~ N * k KEY m MESSAGE; its reply, the entry's ID,
 * acknowledges it. With --acks all each XADD is followed by WAIT for every replica, and the
 * reply to WAIT acknowledges the message, as with lettuce (the adapter's {@code StreamPublisher}).
 *
 * <p>IMPLEMENTATION NOTES: with WAIT a message has two replies; the reader notes the first
 * (the ID, or XADD's refusal) and answers the message at the second, so a refused XADD still
 * consumes its WAIT's reply before the next message's.
 */
final class DirectStreamPublisher extends DirectPublisher {

    private static final String XADD = "XADD";

    private final int replicas;
    private final long waitTimeoutMillis;
    /** With WAIT: the oldest awaiting message's XADD is answered, its WAIT not yet. Reader only. */
    private boolean addAnswered;
    /** With WAIT: why the oldest awaiting message's XADD was refused, or null. Reader only. */
    private String addRefusal;

    /**
     * @param field    the entry's field, which the message is the value of
     * @param keyField with record keys, the field written before the message's, whose value is the key's name
     * @param keyNames with record keys, each key's name by key; null without
     * @param replicas with {@link Acks#ALL}: how many replicas WAIT must hear from
     * @param capacity the most messages awaiting replies at once (the adapter's in-flight limit)
     */
    DirectStreamPublisher(RespConnection connection, byte[] key, String keyName, long maxlen, byte[] field,
                          byte[] keyField, byte[][] keyNames, AckListener acks, Acks mode, int replicas,
                          Duration waitTimeout, int capacity) {
        super(connection, XADD, prefixes(key, maxlen, field, keyField, keyNames), suffix(mode, replicas, waitTimeout),
                keyName, acks, mode, capacity);
        this.replicas = replicas;
        this.waitTimeoutMillis = waitTimeout.toMillis();
        startReader();
    }

    /** Stream number {@code local} of a shared connection whose prefixes {@link #prefixes} built. */
    DirectStreamPublisher(DirectProducerConnection shared, int local, String keyName, AckListener acks, Acks mode,
                          int replicas, Duration waitTimeout, int capacity) {
        super(shared, shared.prefixBase(local), XADD, keyName, acks, mode, capacity);
        this.replicas = replicas;
        this.waitTimeoutMillis = waitTimeout.toMillis();
        startReader();
    }

    /** The bytes each XADD is followed by: WAIT with --acks all, else none. */
    static byte[] suffix(Acks mode, int replicas, Duration waitTimeout) {
        return mode == Acks.ALL ? Resp.encode("WAIT", Integer.toString(replicas), Long.toString(waitTimeout.toMillis()))
                : new byte[0];
    }

    /** XADD's arguments up to the message's length; with record keys one per key, its field among them. */
    static byte[][] prefixes(byte[] key, long maxlen, byte[] field, byte[] keyField, byte[][] keyNames) {
        byte[] xadd = ascii(XADD);
        byte[] trim = ascii(Long.toString(maxlen));
        if (keyNames == null) {
            return new byte[][] {Resp.commandPrefix(xadd, key, ascii("MAXLEN"), ascii("~"), trim, ascii("*"), field)};
        }
        byte[][] prefixes = new byte[keyNames.length][];
        for (int k = 0; k < keyNames.length; k++) {
            prefixes[k] = Resp.commandPrefix(xadd, key, ascii("MAXLEN"), ascii("~"), trim, ascii("*"), keyField,
                    keyNames[k], field);
        }
        return prefixes;
    }

    /** XADD's reply: the new entry's ID. */
    @Override
    public void bulk(byte[] data, int offset, int length) throws IOException {
        if (mode != Acks.ALL) {
            answerOldest("a stream ID");
            if (mode == Acks.BROKER) {
                acks.acked(replySequence, replyIntended);
            }
        } else if (addAnswered) {
            throw unexpected("a stream ID");
        } else {
            requireAwaiting("a stream ID");
            addAnswered = true;
        }
    }

    /** WAIT's reply: how many replicas have every write so far. */
    @Override
    public void integer(long count) throws IOException {
        if (mode != Acks.ALL || !addAnswered) {
            throw unexpected(Resp.describe(count));
        }
        addAnswered = false;
        String refusal = addRefusal;
        addRefusal = null;
        answerOldest("WAIT's count");
        if (refusal != null) {
            acks.failed(replySequence, replyIntended, new IOException("Redis refused " + what + ": " + refusal));
        } else if (count < replicas) {
            acks.failed(replySequence, replyIntended, new IllegalStateException("WAIT: " + count + " of " + replicas
                    + " replicas acknowledged within " + waitTimeoutMillis + " ms"));
        } else {
            acks.acked(replySequence, replyIntended);
        }
    }

    @Override
    public void error(String message) throws IOException {
        if (mode != Acks.ALL) {
            super.error(message);
        } else if (!addAnswered) {
            // XADD refused: its WAIT still answers, and the message is settled then
            requireAwaiting("an error '" + message + "'");
            addAnswered = true;
            addRefusal = message;
        } else {
            addAnswered = false;
            addRefusal = null;
            answerOldest("an error '" + message + "'");
            acks.failed(replySequence, replyIntended, new IOException("Redis refused WAIT after " + what + ": " + message));
        }
    }

    @Override
    protected String due() {
        return mode != Acks.ALL || !addAnswered ? "XADD's stream ID (a bulk string)" : "WAIT's count (an integer)";
    }
}
