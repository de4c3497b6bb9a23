package dev.msgbench.nats;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream writing PUB lines straight to its own {@link WireConnection}, from the
 * producer's thread: no copy queued for another thread, no lock per message. Messages sent back
 * to back are gathered in a buffer that goes out when full and at every {@link #endOfBurst()},
 * which the engine calls before it waits, so a message is never held back across a wait.
 */
final class DirectPublisher implements Publisher {

    /** As much as one socket write carries well; a larger message goes out on its own. */
    static final int BUFFER_BYTES = 64 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);

    private final WireConnection wire;
    /** The jnats connection request/reply receives its echoes on, or null. */
    private final AutoCloseable replies;
    private final FirstFailure failures;
    /** Built once: a concatenation per publish would allocate per message. */
    private final String connectionLabel;
    /** "PUB subject [reply] " */
    private final byte[] commandStart;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int used;
    /** The control line of the last payload length, which is every message's in a run. */
    private byte[] controlLine = new byte[0];
    private int controlLineLength = -1;

    /**
     * @param replyTo where the responder echoes to (request/reply), or null
     * @param replies closed with this publisher: what receives the echoes, or null
     */
    DirectPublisher(WireConnection wire, FirstFailure failures, String subject, String replyTo, AutoCloseable replies) {
        this.wire = wire;
        this.replies = replies;
        this.failures = failures;
        this.connectionLabel = "the connection of " + subject;
        this.commandStart = ("PUB " + subject + " " + (replyTo == null ? "" : replyTo + " "))
                .getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        failures.throwIfAny(connectionLabel);
        send(message);
    }

    /** Sends a message the engine does not count, at once. */
    void sendNow(byte[] probe) throws Exception {
        send(probe);
        endOfBurst();
    }

    private void send(byte[] message) throws Exception {
        byte[] line = controlLine(message.length);
        int need = line.length + message.length + CRLF.length;
        if (used + need > buffer.length) {
            endOfBurst();
            if (need > buffer.length) {
                wire.write(line, message, CRLF);
                return;
            }
        }
        System.arraycopy(line, 0, buffer, used, line.length);
        used += line.length;
        System.arraycopy(message, 0, buffer, used, message.length);
        used += message.length;
        buffer[used++] = '\r';
        buffer[used++] = '\n';
    }

    private byte[] controlLine(int payloadLength) {
        if (payloadLength != controlLineLength) {
            byte[] length = (payloadLength + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] line = new byte[commandStart.length + length.length];
            System.arraycopy(commandStart, 0, line, 0, commandStart.length);
            System.arraycopy(length, 0, line, commandStart.length, length.length);
            controlLine = line;
            controlLineLength = payloadLength;
        }
        return controlLine;
    }

    @Override
    public void endOfBurst() throws Exception {
        if (used > 0) {
            int n = used;
            used = 0;
            wire.write(buffer, n);
        }
    }

    /** Writes what is buffered and waits until the server has it (a PING answered by a PONG). */
    @Override
    public void flush() throws Exception {
        endOfBurst();
        wire.ping(FLUSH_TIMEOUT);
        failures.throwIfAny(connectionLabel);
    }

    @Override
    public void close() throws Exception {
        try {
            endOfBurst();
        } finally {
            try {
                wire.close();
            } finally {
                if (replies != null) {
                    replies.close();
                }
            }
        }
        failures.throwIfAny(connectionLabel);
    }
}
