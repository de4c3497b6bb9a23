package dev.msgbench.redis;

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
 * PUBLISH written by the producer's own thread on a {@link RespConnection} of its own
 * ({@code --redis-client direct}). Commands sent back to back gather in a buffer that goes out
 * when full, at every {@link #endOfBurst()} (the engine calls it before it waits, so a command is
 * never held back across a wait) and before waiting for a free slot. Replies come in
 * order, so the reader matches each to the oldest command awaiting one.
 *
 * <p>IMPLEMENTATION NOTES: the awaiting commands' sequence numbers and intended times are a ring
 * of as many slots as commands may await replies, written by the producer and read by the reader. The two
 * counters bound it (the producer waits while every slot awaits a reply), and the release store
 * of {@code written} publishes each entry: no lock and no compare-and-set per message.
 */
final class DirectPubSubPublisher implements Publisher, RespConnection.ReplyHandler {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final long REPLY_POLL_NANOS = 100_000;
    /** How long a thread waiting for replies yields before it parks. */
    private static final long RING_YIELD_NANOS = 100_000;
    private static final VarHandle WRITTEN;
    private static final VarHandle ANSWERED;

    static {
        try {
            WRITTEN = MethodHandles.lookup().findVarHandle(DirectPubSubPublisher.class, "written", long.class);
            ANSWERED = MethodHandles.lookup().findVarHandle(DirectPubSubPublisher.class, "answered", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RespConnection connection;
    private final String channelName;
    private final AckListener acks;
    private final RedisAcks mode;
    private final FrameBuffer frames;

    private final long[] sequences;
    private final long[] intended;
    /** Commands whose ring entry is written; producer only, read with acquire by the reader. */
    private volatile long written;
    /** The command a reply answers, as {@link #answerOldest} took it; reader only. */
    private long replySequence;
    private long replyIntended;
    /** The producer's last look at {@code answered}. */
    private long answeredSeen;
    /** Replies handled; written by the reader only, with release stores (no fence per reply). */
    private volatile long answered;
    private final AtomicReference<IOException> ended = new AtomicReference<>();
    private volatile boolean readerDone;

    /** @param capacity the most commands awaiting replies at once ({@link InFlight#limit(int, int)}) */
    DirectPubSubPublisher(RespConnection connection, byte[] channel, String channelName, AckListener acks, RedisAcks mode,
                          int capacity) {
        this.connection = connection;
        this.channelName = channelName;
        this.acks = acks;
        this.mode = mode;
        this.sequences = new long[capacity];
        this.intended = new long[capacity];
        byte[] start = ("*3\r\n$7\r\nPUBLISH\r\n$" + channel.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] prefix = new byte[start.length + channel.length + 3];
        System.arraycopy(start, 0, prefix, 0, start.length);
        System.arraycopy(channel, 0, prefix, start.length, channel.length);
        System.arraycopy(new byte[] {'\r', '\n', '$'}, 0, prefix, start.length + channel.length, 3);
        this.frames = new FrameBuffer(prefix, connection::write);
        connection.start(this);
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
            throw new IOException("the connection of " + channelName + " closed while commands awaited replies");
        }
    }

    /**
     * Waits until {@code target} replies are in; false when the reader ended or the deadline
     * passed first. Yields at first (replies come within tens of microseconds), then parks.
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

    /** Sends what is buffered and waits for every reply: the server has then handled every PUBLISH. */
    @Override
    public void flush() throws Exception {
        endOfBurst();
        if (!awaitAnswered(written, System.nanoTime() + CLOSE_TIMEOUT.toNanos())) {
            throwIfEnded();
            throw new TimeoutException("the Redis server did not answer every PUBLISH to " + channelName + " within "
                    + CLOSE_TIMEOUT.toSeconds() + " s");
        }
        throwIfEnded();
    }

    @Override
    public void integer(long receivers) {
        if (!answerOldest("an integer")) {
            return;
        }
        if (mode == RedisAcks.NONE) {
            return;
        }
        if (receivers == 0) {
            acks.failed(replySequence, replyIntended,
                    new IllegalStateException("PUBLISH to " + channelName + " reached no subscriber"));
        } else {
            acks.acked(replySequence, replyIntended);
        }
    }

    @Override
    public void error(String message) {
        if (answerOldest("an error, " + message)) {
            // a failure is reported even with --acks 0: it is not a reply being counted but a message lost
            acks.failed(replySequence, replyIntended, new IOException("Redis refused PUBLISH to " + channelName + ": " + message));
        }
    }

    /**
     * Takes the oldest command awaiting a reply into {@link #replySequence} and {@link
     * #replyIntended}, then frees its slot; false, failing the connection, when none awaits one.
     * The slot is read before it is freed: the producer may fill it again at once.
     */
    private boolean answerOldest(String reply) {
        long n = answered;
        if (n >= (long) WRITTEN.getAcquire(this)) {
            ended.compareAndSet(null, new IOException("a reply (" + reply + ") to no command on the connection of "
                    + channelName));
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
            // the commands still awaiting a reply will get none: they failed, and say why
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
            throw new IOException("the connection of " + channelName + " failed: " + e.getMessage(), e);
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
