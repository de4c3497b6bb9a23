package dev.msgbench.nats.direct;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.nats.wire.WireConnection;

/**
 * One producer stream writing PUB lines straight to its {@link WireConnection}, from the
 * producer's thread: no copy queued for another thread, no lock per message. Messages sent back
 * to back are gathered in a buffer that goes out when full and at every {@link #endOfBurst()},
 * which the engine calls before it waits, so a message is never held back across a wait.
 *
 * <p>Streams that share a connection (and so a producer thread) share its buffer too: each has
 * its PUB lines in it, and the endOfBurst of any of them sends what all of them gathered, so a
 * message only ever leaves earlier than at its own stream's endOfBurst, never later.
 */
public final class DirectPublisher implements Publisher {

    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);

    private final WireConnection wire;
    /** Lets go of the connection (and of what receives request/reply's echoes): closes them unless shared. */
    private final AutoCloseable release;
    private final FirstFailure failures;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    private final FrameBuffer frames;
    /** This stream's own PUB line in {@link #frames}; its keys' lines follow it. */
    private final int firstLine;

    /**
     * @param replyTo where the responder echoes to (request/reply), or null
     * @param replies closed with this publisher: what receives the echoes, or null
     */
    public DirectPublisher(WireConnection wire, FirstFailure failures, String subject, String replyTo,
                           AutoCloseable replies) {
        this(wire, failures, subject, List.of(), replyTo, replies);
    }

    /**
     * A stream on a connection of its own.
     *
     * @param keySubjects the subject of each record key (--keys), by key; empty without keys. Their
     *                    PUB lines are built here once, so a keyed message costs no encoding.
     */
    public DirectPublisher(WireConnection wire, FirstFailure failures, String subject, List<String> keySubjects,
                           String replyTo, AutoCloseable replies) {
        this(wire, failures, "the connection of " + subject, wire.publishFrames(pubSubjects(subject, keySubjects), replyTo),
                0, () -> {
                    try {
                        wire.close();
                    } finally {
                        if (replies != null) {
                            replies.close();
                        }
                    }
                });
    }

    /**
     * A stream on a connection that may be shared with other streams of one producer thread.
     *
     * @param frames    the connection's buffer, holding this stream's PUB lines from {@code firstLine}
     * @param firstLine the stream's own PUB line, which the probes use; its keys' follow it in order
     * @param release   closed with this publisher: lets go of the connection
     */
    public DirectPublisher(WireConnection wire, FirstFailure failures, String connectionLabel, FrameBuffer frames,
                           int firstLine, AutoCloseable release) {
        this.wire = wire;
        this.release = release;
        this.failures = failures;
        this.connectionLabel = connectionLabel;
        this.frames = frames;
        this.firstLine = firstLine;
    }

    /** The stream's subject, then each key's. */
    public static List<String> pubSubjects(String subject, List<String> keySubjects) {
        List<String> subjects = new ArrayList<>();
        subjects.add(subject);
        subjects.addAll(keySubjects);
        return subjects;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        add(firstLine, message);
    }

    /** Key k's PUB line follows the stream's own, which the probes use. */
    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        add(firstLine + key + 1, message);
    }

    private void add(int pubLine, byte[] message) throws Exception {
        failures.throwIfAny(connectionLabel);
        try {
            frames.add(pubLine, message);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void endOfBurst() throws Exception {
        try {
            frames.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /**
     * What a failed write or flush throws: the connection's first failure (the reader may have
     * seen why it ended before the write did), reported as every other failure of it.
     */
    private IOException failed(IOException e) {
        IOException reported = failures.reported(connectionLabel);
        return reported != null ? reported : e;
    }

    /**
     * Writes what is buffered and waits until the server has it (a PING answered by a PONG), unless
     * a PING answered already covers everything written: after the first stream of a shared
     * connection flushed it.
     */
    @Override
    public void flush() throws Exception {
        endOfBurst();
        try {
            wire.pingIfWritten(FLUSH_TIMEOUT);
        } catch (IOException e) {
            throw failed(e);
        }
        failures.throwIfAny(connectionLabel);
    }

    @Override
    public void close() throws Exception {
        try {
            endOfBurst();
        } finally {
            release.close();
        }
        failures.throwIfAny(connectionLabel);
    }
}
