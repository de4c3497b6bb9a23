package dev.msgbench.redis;

/**
 * Sends a publisher's commands several to a write, as redis-benchmark's pipelining does. Lettuce
 * writes and flushes each command on its own by default, one system call and one server read per
 * command; with auto-flush off it keeps them until {@link #send}, which writes them together.
 *
 * <p>Commands are sent when the engine ends a burst (no further message is due now), when
 * {@link #MAX_COMMANDS} are waiting, and before waiting for an in-flight permit. So a batch only
 * forms while the publisher is behind its schedule or unpaced; a message sent on time goes out
 * at once, as before.
 *
 * <p>Used by the publishing thread only, or after it has ended. The batch is the connection's
 * ({@link ProducerConnection}): streams that share one, from one thread, share it; the in-flight
 * permits are each stream's own.
 */
final class CommandBatch {

    /**
     * Past a few dozen commands a larger write saves little (redis-benchmark gets most of its rate
     * from 16), while the first command of a batch waits for the last to be written; 64 PUBLISH
     * of 100 B are one 8 KB write, a few microseconds of the server's time.
     */
    static final int MAX_COMMANDS = 64;

    private final ProducerConnection connection;
    private final InFlight inFlight;

    CommandBatch(ProducerConnection connection, InFlight inFlight) {
        this.connection = connection;
        this.inFlight = inFlight;
    }

    /**
     * Takes an in-flight permit for the next message. When it must wait for one, the batch goes
     * out first: the replies that free permits may be to commands still in it, and would never come.
     */
    void acquire() throws InterruptedException {
        if (!inFlight.tryAcquire()) {
            send();
            inFlight.acquire();
        }
    }

    /** When a message's last reply has come, on a lettuce thread. */
    void release() {
        inFlight.release();
    }

    /** After a message's {@code commands} were written: sends the batch once it is full. */
    void added(int commands) {
        connection.added(commands);
    }

    /** No further message is due now: nothing may wait in the batch while the engine waits. */
    void endOfBurst() {
        connection.endOfBurst();
    }

    /** Writes every command kept so far and flushes the socket. */
    void send() {
        connection.send();
    }
}
