package dev.msgbench.redis.direct;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ProtocolException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.redis.resp.ReplyHandler;
import dev.msgbench.redis.resp.RespConnection;

/**
 * One {@link RespConnection} that several producer streams publish on ({@code --producer-threads}
 * below the producers), all from one thread: their commands go out through one {@link FrameBuffer},
 * in the order they were published, and the replies come back in that order across the streams.
 * So the connection keeps, for every message written, which stream's it is, and hands each reply
 * to that stream's publisher, which settles it against its own ring as on a connection of its own.
 *
 * <p>The buffer holds every stream's prefixes (PUBLISH channel, XADD key ...), a stream's from
 * {@link #prefixBase} on, all built when the connection is made. Closed when the last of its
 * publishers closes.
 *
 * <p>IMPLEMENTATION NOTES: the owners' ring has as many slots as the streams' rings together: a
 * stream never has more messages awaiting replies than its own ring holds, so the producer never
 * waits for a slot here. Written by the producing thread (release store of {@code written}), read
 * by the reader thread, as {@link DirectPublisher}'s ring is.
 */
public final class DirectProducerConnection implements ReplyHandler, AutoCloseable {

    private static final VarHandle WRITTEN;

    static {
        try {
            WRITTEN = MethodHandles.lookup().findVarHandle(DirectProducerConnection.class, "written", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RespConnection connection;
    private final FrameBuffer frames;
    private final int prefixesPerStream;
    private final DirectPublisher[] owners;
    private final List<DirectPublisher> publishers = new CopyOnWriteArrayList<>();
    /** Messages written, by the producing thread. */
    private volatile long written;
    /** Messages settled; reader only. */
    private long settled;
    private int users;
    private boolean closed;

    /**
     * @param prefixes  every stream's prefixes, stream after stream, {@code prefixesPerStream} each
     * @param capacity  the most messages awaiting replies on the connection (its streams' limits together)
     */
    DirectProducerConnection(RespConnection connection, byte[][] prefixes, int prefixesPerStream, byte[] suffix,
                             int capacity) {
        this.connection = connection;
        this.prefixesPerStream = prefixesPerStream;
        this.frames = new FrameBuffer(prefixes, suffix, connection::write);
        this.owners = new DirectPublisher[capacity];
        connection.start(this);
    }

    FrameBuffer frames() {
        return frames;
    }

    /** Where the prefixes of the connection's stream number {@code local} (from 0) start. */
    int prefixBase(int local) {
        return local * prefixesPerStream;
    }

    /** A publisher of the connection, closed with {@link #release}. */
    synchronized void register(DirectPublisher publisher) {
        users++;
        publishers.add(publisher);
    }

    /** Before a message of {@code owner} is written; by the producing thread. */
    void wrote(DirectPublisher owner) {
        long n = written;
        owners[(int) (n % owners.length)] = owner;
        WRITTEN.setRelease(this, n + 1);
    }

    /** Closes the connection when the last of its publishers is done with it. */
    void release() throws IOException {
        boolean last;
        synchronized (this) {
            last = --users == 0 && !closed;
            closed |= last;
        }
        if (last) {
            connection.close();
        }
    }

    /** Closes the connection whoever still uses it (the system's close, after a failed run). */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        connection.close();
    }

    private DirectPublisher oldest(String reply) throws ProtocolException {
        if (settled >= (long) WRITTEN.getAcquire(this)) {
            throw new ProtocolException("Redis sent a reply (" + reply + ") to no command on a shared producer connection");
        }
        return owners[(int) (settled % owners.length)];
    }

    /** The next owner's turn once {@code owner} settled its message (with WAIT, at its second reply). */
    private void next(DirectPublisher owner, long answeredBefore) {
        if (owner.answered() != answeredBefore) {
            settled++;
        }
    }

    @Override
    public void integer(long value) throws IOException {
        DirectPublisher owner = oldest("an integer");
        long before = owner.answered();
        owner.integer(value);
        next(owner, before);
    }

    @Override
    public void bulk(byte[] data, int offset, int length) throws IOException {
        DirectPublisher owner = oldest("a bulk string");
        long before = owner.answered();
        owner.bulk(data, offset, length);
        next(owner, before);
    }

    @Override
    public void error(String message) throws IOException {
        DirectPublisher owner = oldest("an error");
        long before = owner.answered();
        owner.error(message);
        next(owner, before);
    }

    @Override
    public void simple(String value) throws IOException {
        oldest("a simple string").simple(value);
    }

    @Override
    public void nil() throws IOException {
        oldest("a nil").nil();
    }

    @Override
    public void array(List<Object> elements) throws IOException {
        oldest("an array").array(elements);
    }

    /** Every publisher of the connection hears it: their messages awaiting replies failed. */
    @Override
    public void ended(IOException cause) {
        for (DirectPublisher publisher : publishers) {
            publisher.ended(cause);
        }
    }
}
