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
 * <p>Who reads the replies: on a connection of its own, a reader thread started with the first
 * message; in an unpaced run the producer's own thread instead, while it waits for room ({@link
 * #takeOverReplies}), as redis-benchmark's one thread does: with the load generator on one core the
 * reader thread cost a switch there and back for every window of replies. On a shared connection,
 * the connection's reader.
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
    /**
     * How long a producer reading its own replies looks for them without blocking before it waits
     * in the kernel for the next: a blocked thread wakes tens of microseconds late on a VM, longer
     * than a reply takes; a blocking read is also what sees the server hang up.
     */
    private static final long OWN_READ_SPIN_NANOS = 200_000;
    /** How long that wait lasts before the engine's wait loop looks again at the clock and at a stop. */
    private static final int OWN_READ_WAIT_MILLIS = 10;
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
     * On a connection of its own: whether its reader thread runs, started with the first message
     * unless the producer took the replies over first ({@link #takeOverReplies}). Both by the
     * threads that use the publisher, one at a time.
     */
    private boolean readerStarted;
    private boolean producerReads;
    /** When the producer began to look for a reply that had not come; 0 when not looking. */
    private long lookingSince;

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
     * On a shared connection joins the connection's reader: the last step of a subclass's
     * constructor, so that the reader sees every field the subclass sets. A connection of its own
     * starts its reader with the first message, unless the producer takes the replies over.
     */
    protected final void startReader() {
        if (shared != null) {
            shared.register(this);
        }
    }

    /** The replies are read on the producer's thread while it waits for room, with no reader thread. */
    @Override
    public boolean takeOverReplies() {
        if (shared != null || readerStarted) {
            return false;
        }
        producerReads = true;
        return true;
    }

    /**
     * With the replies taken over, called while the producer waits for room: reads the replies that
     * have arrived. When none has for {@link #OWN_READ_SPIN_NANOS}, waits in the kernel for the next
     * (one is due: every command is written), at most {@link #OWN_READ_WAIT_MILLIS} at a time; that
     * wait also sees the connection end, which fails what still awaits a reply, as the reader thread does.
     */
    @Override
    public boolean makeProgress() throws IOException {
        if (!producerReads || readerDone || answered >= written) {
            return false;
        }
        try {
            endOfBurst();
            if (!connection.replyReady()) {
                long now = System.nanoTime();
                if (lookingSince == 0) {
                    lookingSince = now;
                    return false;
                }
                if (now - lookingSince < OWN_READ_SPIN_NANOS) {
                    return false;
                }
                if (!connection.awaitReply(OWN_READ_WAIT_MILLIS)) {
                    // a server that stopped answering: the engine may give up or stop meanwhile
                    return false;
                }
            }
            lookingSince = 0;
            do {
                connection.readReply(this);
            } while (connection.replyReady());
        } catch (IOException e) {
            ended(e);
            throw failure.reported(connectionLabel);
        }
        return true;
    }

    /**
     * At the end (flush, close) a reader thread takes the replies back, so that the wait for the
     * last ones keeps its deadline: the producer's own read would wait for as long as the server does.
     */
    private void handRepliesBack() {
        if (producerReads && !readerDone) {
            producerReads = false;
            readerStarted = true;
            connection.start(this);
        }
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        publish(message, 0, sequence, intendedSendNanos);
    }

    /** @param key the message's key, which picks its command's prefix; 0 without keys */
    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        if (!readerStarted && !producerReads && shared == null) {
            readerStarted = true;
            connection.start(this);
        }
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
            if (producerReads && deadlineNanos == Long.MAX_VALUE) {
                try {
                    if (makeProgress()) {
                        continue;
                    }
                } catch (IOException e) {
                    // the connection ended: the loop sees readerDone
                    continue;
                }
            }
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
        handRepliesBack();
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
            handRepliesBack();
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
