package dev.msgbench.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.FrameBuffer;
import dev.msgbench.core.driver.Publisher;

/**
 * Commands written by the producer's own thread on a {@link RespConnection} of its own
 * ({@code --redis-client direct}), one per message (or a pair: XADD, then WAIT), the message the
 * last argument of the first. Commands sent back to back gather in a buffer that goes out when
 * full, at every {@link #endOfBurst()} (the engine calls it before it waits, so a command is
 * never held back across a wait) and before waiting for a free slot. Replies come in order, so
 * the reader matches each message's to the oldest message awaiting one; what a reply means is the
 * subclass's.
 *
 * <p>IMPLEMENTATION NOTES: the awaiting messages' sequence numbers and intended times are a ring
 * of as many slots as messages may await replies, written by the producer and read by the reader.
 * The two counters bound it (the producer waits while every slot awaits a reply), and the release
 * store of {@code written} publishes each entry: no lock and no compare-and-set per message.
 */
abstract class DirectPublisher implements Publisher, RespConnection.ReplyHandler {

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

    private final RespConnection connection;
    /** What each message is, for errors: "PUBLISH to run:0", "XADD to run:0". */
    protected final String what;
    private final String destination;
    protected final AckListener acks;
    protected final RedisAcks mode;
    private final FrameBuffer frames;

    private final long[] sequences;
    private final long[] intended;
    /** Messages whose ring entry is written; producer only, read with acquire by the reader. */
    private volatile long written;
    /** The message a reply answers, as {@link #answerOldest} took it; reader only. */
    protected long replySequence;
    protected long replyIntended;
    /** The producer's last look at {@code answered}. */
    private long answeredSeen;
    /** Messages answered; written by the reader only, with release stores (no fence per reply). */
    private volatile long answered;
    private final AtomicReference<IOException> ended = new AtomicReference<>();
    private volatile boolean readerDone;

    /**
     * @param command     the command's name and its arguments before the message, e.g. PUBLISH channel
     * @param suffix      bytes sent after each command (a WAIT), or none
     * @param destination the channel or key, for errors
     * @param capacity    the most messages awaiting replies at once ({@link InFlight#limit(int, int)})
     */
    DirectPublisher(RespConnection connection, byte[][] command, byte[] suffix, String destination, AckListener acks,
                    RedisAcks mode, int capacity) {
        this.connection = connection;
        this.what = new String(command[0], StandardCharsets.US_ASCII) + " to " + destination;
        this.destination = destination;
        this.acks = acks;
        this.mode = mode;
        this.sequences = new long[capacity];
        this.intended = new long[capacity];
        this.frames = new FrameBuffer(prefixOf(command), suffix, connection::write);
    }

    /**
     * Starts the thread that reads the replies: the last step of a subclass's constructor, so
     * that the reader sees every field the subclass sets.
     */
    protected final void startReader() {
        connection.start(this);
    }

    /** A RESP array of {@code command} and one more bulk string, up to that string's length. */
    static byte[] prefixOf(byte[]... command) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + (command.length + 1) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : command) {
            b.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(arg);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        b.write('$');
        return b.toByteArray();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        throwIfEnded();
        long n = written;
        // the reader's counter is read only when the last value seen says the ring is full: its
        // cache line changes with every reply
        if (n - answeredSeen >= sequences.length) {
            answeredSeen = answered;
            if (n - answeredSeen >= sequences.length) {
                awaitRingSpace(n);
                answeredSeen = answered;
            }
        }
        int slot = (int) (n % sequences.length);
        sequences[slot] = sequence;
        intended[slot] = intendedSendNanos;
        WRITTEN.setRelease(this, n + 1);

        frames.add(message);
    }

    /** Every slot awaits a reply: waits for the reader, as the in-flight limit asks. */
    private void awaitRingSpace(long n) throws IOException, InterruptedException {
        // the replies that free slots may be to commands still in the buffer
        endOfBurst();
        if (!awaitAnswered(n - sequences.length + 1, Long.MAX_VALUE)) {
            throwIfEnded();
            throw new IOException("the connection of " + destination + " closed while commands awaited replies");
        }
    }

    /**
     * Waits until {@code target} messages are answered; false when the reader ended or the
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
        frames.flush();
    }

    /** Sends what is buffered and waits for every reply: the server has then handled every command. */
    @Override
    public void flush() throws Exception {
        endOfBurst();
        if (!awaitAnswered(written, System.nanoTime() + CLOSE_TIMEOUT.toNanos())) {
            throwIfEnded();
            throw new TimeoutException("the Redis server did not answer every " + what + " within "
                    + CLOSE_TIMEOUT.toSeconds() + " s");
        }
        throwIfEnded();
    }

    /** A refused command: the message failed, reported even with --acks 0 (a message lost, not a reply counted). */
    @Override
    public void error(String message) {
        if (answerOldest("an error, " + message)) {
            acks.failed(replySequence, replyIntended, new IOException("Redis refused " + what + ": " + message));
        }
    }

    /**
     * Whether a message awaits its reply; when none does, fails the connection for a reply to no
     * command and returns false.
     */
    protected final boolean awaitsReply(String reply) {
        return awaitsReply(answered, reply);
    }

    private boolean awaitsReply(long answeredSoFar, String reply) {
        if (answeredSoFar >= (long) WRITTEN.getAcquire(this)) {
            protocolError("a reply (" + reply + ") to no command");
            return false;
        }
        return true;
    }

    /** Ends the connection for a reply that cannot be matched to its command. */
    protected final void protocolError(String problem) {
        ended.compareAndSet(null, new IOException(problem + " on the connection of " + destination));
    }

    /**
     * Takes the oldest message awaiting a reply into {@link #replySequence} and {@link
     * #replyIntended}, then frees its slot; false, failing the connection, when none awaits one.
     * The slot is read before it is freed: the producer may fill it again at once.
     */
    protected final boolean answerOldest(String reply) {
        long n = answered;
        if (!awaitsReply(n, reply)) {
            return false;
        }
        int slot = (int) (n % sequences.length);
        replySequence = sequences[slot];
        replyIntended = intended[slot];
        ANSWERED.setRelease(this, n + 1);
        return true;
    }

    @Override
    public void ended(IOException cause) {
        if (cause != null) {
            ended.compareAndSet(null, cause);
            // the messages still awaiting a reply will get none: they failed, and say why
            for (long n = answered; n < (long) WRITTEN.getAcquire(this); n++) {
                int slot = (int) (n % sequences.length);
                acks.failed(sequences[slot], intended[slot], cause);
            }
        }
        readerDone = true;
    }

    private void throwIfEnded() throws IOException {
        IOException e = ended.get();
        if (e != null) {
            throw new IOException("the connection of " + destination + " failed: " + e.getMessage(), e);
        }
    }

    /** Sends what is buffered and waits for the replies first, so that none is reported lost by closing. */
    @Override
    public void close() throws Exception {
        try {
            endOfBurst();
            awaitAnswered(written, System.nanoTime() + CLOSE_TIMEOUT.toNanos());
        } finally {
            connection.close();
        }
        throwIfEnded();
    }
}
