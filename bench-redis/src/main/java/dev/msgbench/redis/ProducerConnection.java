package dev.msgbench.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.StatefulRedisConnection;

/**
 * A lettuce connection of one or more producer streams, all publishing from one thread
 * ({@code --producer-threads}), with auto-flush off: the commands of all its streams gather until
 * {@link #send}, so one stream's end of burst (or full batch) sends the others' too, in the order
 * they were issued. Lettuce completes each command's own future, so every stream still settles its
 * own messages. Closed when the last of its streams is done with it.
 */
final class ProducerConnection implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final StatefulRedisConnection<byte[], byte[]> connection;
    /** Commands issued since the last send; by the publishing thread. */
    private int unsent;
    private int users;
    private boolean closed;

    ProducerConnection(StatefulRedisConnection<byte[], byte[]> connection) {
        this.connection = connection;
        connection.setAutoFlushCommands(false);
    }

    StatefulRedisConnection<byte[], byte[]> connection() {
        return connection;
    }

    /** A stream that will {@link #release} it. */
    synchronized ProducerConnection use() {
        users++;
        return this;
    }

    /** After {@code commands} were issued: sends the batch once it is full. */
    void added(int commands) {
        unsent += commands;
        if (unsent >= CommandBatch.MAX_COMMANDS) {
            send();
        }
    }

    /** No further message is due now: nothing may wait in the batch while the engine waits. */
    void endOfBurst() {
        if (unsent > 0) {
            send();
        }
    }

    /** Writes every command kept so far and flushes the socket. */
    void send() {
        unsent = 0;
        connection.flushCommands();
    }

    /** Closes the connection once its last stream is done with it (that stream's replies awaited). */
    void release() throws Exception {
        synchronized (this) {
            if (--users > 0 || closed) {
                return;
            }
            closed = true;
        }
        connection.closeAsync().get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes it whoever still uses it: the system's close, after a run whose publishers did not all close. */
    @Override
    public void close() throws Exception {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        connection.closeAsync().get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
