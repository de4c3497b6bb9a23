package dev.msgbench.core.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Gathers commands of the text protocols that frame a payload as
 * {@code <prefix><length>\r\n<payload>\r\n<suffix>} (NATS PUB, a Redis command whose last bulk
 * string is the payload, optionally followed by a fixed command such as WAIT), for
 * a publisher that writes its protocol itself: commands sent back to back leave in one socket
 * write when the buffer is full or at {@link #flush()}, which a publisher calls at every
 * {@link dev.msgbench.core.driver.Publisher#endOfBurst()}. A payload larger than the buffer goes
 * out on its own.
 *
 * <p>Used by one thread. The length's digits are built again only when the payload length
 * changes: with one --size they never do, so adding a message allocates nothing; with a size
 * distribution each message is framed at its own length.
 *
 * <p>With record keys the prefix differs by key (a subject or channel per key): the buffer is
 * given every prefix once, built ahead, and each message names its own by index.
 */
public final class FrameBuffer {

    /** Where full buffers go: a socket's stream, under whatever lock it needs. */
    public interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    /** As much as one socket write carries well. */
    public static final int CAPACITY = 64 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};

    private final byte[][] prefixes;
    private final byte[] suffix;
    private final Sink sink;
    private final byte[] buffer = new byte[CAPACITY];
    private int used;
    /** The payload length and CRLF as digits, for {@code digitsLength}. */
    private byte[] digits = new byte[0];
    private int digitsLength = -1;

    /** @param prefix the bytes before each payload's length, e.g. {@code "PUB subject "} */
    public FrameBuffer(byte[] prefix, Sink sink) {
        this(prefix, new byte[0], sink);
    }

    /** @param suffix bytes written after each payload's closing {@code \r\n} */
    public FrameBuffer(byte[] prefix, byte[] suffix, Sink sink) {
        this(new byte[][] {prefix}, suffix, sink);
    }

    /** @param prefixes the bytes before each payload's length, by key: {@link #add(int, byte[])} picks one */
    public FrameBuffer(byte[][] prefixes, byte[] suffix, Sink sink) {
        this.prefixes = new byte[prefixes.length][];
        for (int p = 0; p < prefixes.length; p++) {
            this.prefixes[p] = prefixes[p].clone();
        }
        this.suffix = suffix.clone();
        this.sink = sink;
    }

    public void add(byte[] payload) throws IOException {
        add(0, payload);
    }

    /** Adds {@code payload} after prefix number {@code prefix}. */
    public void add(int prefix, byte[] payload) throws IOException {
        byte[] head = prefixes[prefix];
        byte[] length = digits(payload.length);
        int need = head.length + length.length + payload.length + CRLF.length + suffix.length;
        if (used + need > buffer.length) {
            flush();
            if (need > buffer.length) {
                // one write, so that nothing the sink's owner writes (a NATS PONG) falls inside the frame;
                // a copy costs little beside sending more than 64 KiB
                byte[] frame = new byte[need];
                System.arraycopy(head, 0, frame, 0, head.length);
                System.arraycopy(length, 0, frame, head.length, length.length);
                System.arraycopy(payload, 0, frame, head.length + length.length, payload.length);
                System.arraycopy(CRLF, 0, frame, need - suffix.length - CRLF.length, CRLF.length);
                System.arraycopy(suffix, 0, frame, need - suffix.length, suffix.length);
                sink.write(frame, 0, need);
                return;
            }
        }
        System.arraycopy(head, 0, buffer, used, head.length);
        used += head.length;
        System.arraycopy(length, 0, buffer, used, length.length);
        used += length.length;
        System.arraycopy(payload, 0, buffer, used, payload.length);
        used += payload.length;
        buffer[used++] = '\r';
        buffer[used++] = '\n';
        if (suffix.length > 0) {
            System.arraycopy(suffix, 0, buffer, used, suffix.length);
            used += suffix.length;
        }
    }

    /** Writes whatever is gathered. */
    public void flush() throws IOException {
        if (used > 0) {
            int n = used;
            used = 0;
            sink.write(buffer, 0, n);
        }
    }

    private byte[] digits(int payloadLength) {
        if (payloadLength != digitsLength) {
            digits = (payloadLength + "\r\n").getBytes(StandardCharsets.US_ASCII);
            digitsLength = payloadLength;
        }
        return digits;
    }
}
