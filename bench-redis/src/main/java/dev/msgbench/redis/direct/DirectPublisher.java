package dev.msgbench.redis.direct;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ProtocolException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.redis.resp.ReplyHandler;
import dev.msgbench.redis.resp.Resp;
import dev.msgbench.redis.resp.RespConnection;

/**
 * Commands written by the producer's own thread on a {@link RespConnection} of its own
 * ({@code --redis-client direct}), one per message (or a pair: XADD, then WAIT), the message the
 * last argument of the first. Commands sent back to back gather in a buffer that goes out when
 * full, at every {@link #endOfBurst()} (the engine calls it before it waits, so a command is
 * never held back across a wait) and before waiting for a free slot. Replies come in order, so
 * the reader matches each message's to the oldest message awaiting one; what a reply means is the
 * subclass's. A reply of a type the command never returns ends the connection: the replies
 * could no longer be trusted to match their messages.
 *
 * <p>Every message is settled once: acknowledged or failed by its reply, failed when the
 * connection ends before its reply comes, or failed by publish when the connection has already
 * failed; so a run's counts add up (sent = acknowledged + failed) however the connection ends.
 *
 * <p>IMPLEMENTATION NOTES: the awaiting messages' sequence numbers and intended times are a ring
 * of as many slots as messages may await replies, written by the producer and read by the reader.
 * The two counters bound it (the producer waits while every slot awaits a reply), and the release
 * store of {@code written} publishes each entry: no lock and no compare-and-set per message.
 */
abstract class DirectPublisher implements Publisher, ReplyHandler {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final long REPLY_POLL_NANOS = 100_000;
    /** How long a thread waiting for replies yields before it parks. */
    private static final long RING_YIELD_NANOS = 100_000;
    private static final VarHandle WRITTEN;
    private static final VarHandle ANSWERED;

    static {
        try {
            WRITTEN = MethodHandles.lookup().findVarHandle(DirectPublisher.class, "written", long.class);
            ANSWERED = MethodHandles.lookup().findVarHandle(DirectPublisher.class, "answered", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Null on a shared connection, which {@link #shared} closes. */
    private final RespConnection connection;
    /** The connection this stream shares with others, or null when it has one of its own. */
    private final DirectProducerConnection shared;
    /** Where this stream's prefixes start in {@link #frames}: 0 on a connection of its own. */
    private final int prefixBase;
    /** What each message is, for errors: "PUBLISH to run:0", "XADD to run:0". */
    protected final String what;
    private final String destination;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    protected final AckListener acks;
    /** NONE: replies are not counted; BROKER: a message's reply acknowledges it; ALL: the reply to its WAIT does. */
    protected final Acks mode;
    private final FrameBuffer frames;

    private final long[] sequences;
    private final long[] intended;
    /**
     * Once every slot awaits a reply, how many must be answered before the producer writes on:
     * half of them, so that commands go out in batches, as redis-benchmark's do, rather than one
     * write (a system call) per reply.
     */
    private final int refill;
    /** Messages whose ring entry is written; producer only, read with acquire by the reader. */
    private volatile long written;
    /** The message a reply answers, as {@link #answerOldest} took it; reader only. */
    protected long replySequence;
    protected long replyIntended;
    /** The producer's last look at {@code answered}. */
    private long answeredSeen;
    /** Messages settled; written by the reader only (then by close), with release stores (no fence per reply). */
    private volatile long answered;
    /** Why the connection ended; checked before every message. */
    private final FirstFailure failure = new FirstFailure();
    private volatile boolean readerDone;

    /**
     * @param commandName the command's name, for errors
     * @param prefixes    the command and its arguments before the message, up to the message's length
     *                    ({@link Resp#commandPrefix}), e.g. PUBLISH channel; with record keys one per key, by
     *                    key (a channel per key, a key field), built once
     * @param suffix      bytes sent after each command (a WAIT), or none
     * @param destination the channel or key, for errors
     * @param capacity    the most messages awaiting replies at once (the adapter's in-flight limit)
     */
    DirectPublisher(RespConnection connection, String commandName, byte[][] prefixes, byte[] suffix, String destination,
                    AckListener acks, Acks mode, int capacity) {
        this(connection, null, 0, new FrameBuffer(prefixes, suffix, connection::write), commandName, destination, acks,
                mode, capacity);
    }

    /**
     * A stream on a connection it shares: its commands go out through the connection's buffer,
     * with its prefixes from {@code prefixBase}, and the connection hands it its replies.
     */
    DirectPublisher(DirectProducerConnection shared, int prefixBase, String commandName, String destination,
                    AckListener acks, Acks mode, int capacity) {
        this(null, shared, prefixBase, shared.frames(), commandName, destination, acks, mode, capacity);
    }

    private DirectPublisher(RespConnection connection, DirectProducerConnection shared, int prefixBase,
                            FrameBuffer frames, String commandName, String destination, AckListener acks, Acks mode,
                            int capacity) {
        this.connection = connection;
        this.shared = shared;
        this.prefixBase = prefixBase;
        this.what = commandName + " to " + destination;
        this.destination = destination;
        this.connectionLabel = "the connection of " + destination + (shared == null ? "" : " (shared)");
        this.acks = acks;
        this.mode = mode;
        this.sequences = new long[capacity];
        this.intended = new long[capacity];
        this.refill = Math.max(1, capacity / 2);
        this.frames = frames;
    }

    /**
     * Starts the thread that reads the replies, or on a shared connection joins the connection's:
     * the last step of a subclass's constructor, so that the reader sees every field the subclass sets.
     */
    protected final void startReader() {
        if (shared == null) {
            connection.start(this);
        } else {
            shared.register(this);
        }
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        publish(message, 0, sequence, intendedSendNanos);
    }

    /** @param key the message's key, which picks its command's prefix; 0 without keys */
    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        long n = written;
        // the reader's counter is read only when the last value seen says the ring is full: its
        // cache line changes with every reply
        if (n - answeredSeen >= sequences.length || failure.first() != null) {
            makeRoom(n, sequence, intendedSendNanos);
        }
        int slot = (int) (n % sequences.length);
        sequences[slot] = sequence;
        intended[slot] = intendedSendNanos;
        WRITTEN.setRelease(this, n + 1);
        int prefix = key;
        if (shared != null) {
            // the one difference on a connection of one's own: a branch never taken
            shared.wrote(this);
            prefix += prefixBase;
        }
        try {
            frames.add(prefix, message);
        } catch (IOException e) {
            throw writeFailed(e);
        }
    }

    /** The connection is as good as ended, and says so as it does for every other failure. */
    private IOException writeFailed(IOException e) {
        failure.add(e);
        return failure.reported(connectionLabel);
    }

    /**
     * Once every slot awaits a reply (the in-flight limit), waits until {@link #refill} of them are
     * answered; fails the message when the connection has failed, so that it is settled as every other.
     */
    private void makeRoom(long n, long sequence, long intendedSendNanos) throws IOException, InterruptedException {
        try {
            answeredSeen = answered;
            if (n - answeredSeen >= sequences.length) {
                // the replies that free slots may be to commands still in the buffer
                endOfBurst();
                if (!awaitAnswered(n - sequences.length + refill, Long.MAX_VALUE)) {
                    failure.add(new IOException("the reader ended while commands awaited replies"));
                }
                answeredSeen = answered;
            }
            failure.throwIfAny(connectionLabel);
        } catch (IOException e) {
            acks.failed(sequence, intendedSendNanos, e);
            throw e;
        }
    }

    /**
     * Waits until {@code target} messages are settled; false when the reader ended or the
     * deadline passed first. Yields at first (replies come within tens of microseconds), then parks.
     */
    private boolean awaitAnswered(long target, long deadlineNanos) throws InterruptedException {
        long start = System.nanoTime();
        while (answered < target) {
            if (readerDone) {
                return answered >= target;
            }
            long now = System.nanoTime();
            if (now - deadlineNanos >= 0 && deadlineNanos != Long.MAX_VALUE) {
                return false;
            }
            if (now - start < RING_YIELD_NANOS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(REPLY_POLL_NANOS);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
        return true;
    }

    @Override
    public void endOfBurst() throws IOException {
        try {
            frames.flush();
        } catch (IOException e) {
            throw writeFailed(e);
        }
    }

    /** Sends what is buffered and waits for every reply: the server has then handled every command. */
    @Override
    public void flush() throws Exception {
        endOfBurst();
        if (!awaitAnswered(written, System.nanoTime() + CLOSE_TIMEOUT.toNanos())) {
            failure.throwIfAny(connectionLabel);
            throw new TimeoutException("the Redis server did not answer every " + what + " within "
                    + CLOSE_TIMEOUT.toSeconds() + " s");
        }
        failure.throwIfAny(connectionLabel);
    }

    /** The reply the oldest awaiting message is due, for errors: "PUBLISH's count (an integer)". */
    protected abstract String due();

    /** A refused command: the message failed, reported even with --acks 0 (a message lost, not a reply counted). */
    @Override
    public void error(String message) throws IOException {
        answerOldest("an error '" + message + "'");
        acks.failed(replySequence, replyIntended, new IOException("Redis refused " + what + ": " + message));
    }

    @Override
    public void simple(String value) throws IOException {
        throw unexpected(Resp.describe(value));
    }

    @Override
    public void nil() throws IOException {
        throw unexpected(Resp.describe(null));
    }

    @Override
    public void array(List<Object> elements) throws IOException {
        throw unexpected(Resp.describe(elements));
    }

    @Override
    public void integer(long value) throws IOException {
        throw unexpected(Resp.describe(value));
    }

    @Override
    public void bulk(byte[] data, int offset, int length) throws IOException {
        throw unexpected("a bulk string of " + length + " bytes");
    }

    /** Ends the connection for a reply of a type the command does not return. */
    protected final ProtocolException unexpected(String reply) {
        return new ProtocolException("Redis answered " + what + " with " + reply + " where " + due() + " was due");
    }

    /** Fails the connection for a reply to no command, unless a message awaits one. */
    protected final void requireAwaiting(String reply) throws ProtocolException {
        requireAwaiting(answered, reply);
    }

    private void requireAwaiting(long answeredSoFar, String reply) throws ProtocolException {
        if (answeredSoFar >= (long) WRITTEN.getAcquire(this)) {
            throw new ProtocolException("Redis sent a reply (" + reply + ") to no command on " + connectionLabel);
        }
    }

    /**
     * Takes the oldest message awaiting a reply into {@link #replySequence} and {@link
     * #replyIntended}, then frees its slot; fails the connection when none awaits one. The slot is
     * read before it is freed: the producer may fill it again at once.
     */
    protected final void answerOldest(String reply) throws ProtocolException {
        long n = answered;
        requireAwaiting(n, reply);
        int slot = (int) (n % sequences.length);
        replySequence = sequences[slot];
        replyIntended = intended[slot];
        ANSWERED.setRelease(this, n + 1);
    }

    /** Messages settled so far, for a shared connection's reader. */
    final long answered() {
        return answered;
    }

    @Override
    public void ended(IOException cause) {
        if (cause != null) {
            failure.add(cause);
            // the messages still awaiting a reply will get none: they failed, and say why
            settleUnanswered(cause);
        }
        readerDone = true;
    }

    /** Fails the messages awaiting replies; by the reader, or once it has ended. */
    private void settleUnanswered(Throwable cause) {
        long n = answered;
        for (long end = (long) WRITTEN.getAcquire(this); n < end; n++) {
            int slot = (int) (n % sequences.length);
            acks.failed(sequences[slot], intended[slot], cause);
        }
        ANSWERED.setRelease(this, n);
    }

    /** Sends what is buffered and waits for the replies first, so that none is reported lost by closing. */
    @Override
    public void close() throws Exception {
        try {
            endOfBurst();
            awaitAnswered(written, System.nanoTime() + CLOSE_TIMEOUT.toNanos());
        } finally {
            if (shared == null) {
                connection.close();
            } else {
                shared.release();
            }
            if (readerDone) {
                // the publish that failed on a dead socket had written its entry after the reader ended
                settleUnanswered(failure.first() != null ? failure.first()
                        : new IOException(connectionLabel + " closed before Redis answered " + what));
            }
        }
        failure.throwIfAny(connectionLabel);
    }
}
