package dev.msgbench.core.wire;

import java.io.IOException;

/**
 * Gathers commands of the text protocols that frame a payload as
 * {@code <prefix><length>\r\n<payload>\r\n<suffix>} (NATS PUB, a Redis command whose last bulk
 * string is the payload, optionally followed by a fixed command such as WAIT), for
 * a publisher that writes its protocol itself: commands sent back to back leave in one socket
 * write when the buffer is full or at {@link #flush()}, which a publisher calls at every
 * {@link dev.msgbench.core.driver.Publisher#endOfBurst()}. A payload larger than the buffer goes
 * out on its own.
 *
 * <p>Used by one thread. A buffer may frame with several prefixes, chosen per message by index
 * (a PUB line per record key's subject), all built once; the payload's length is written as
 * digits in place, so adding a message allocates nothing, whatever its length or prefix.
 */
public final class FrameBuffer {

    /** Where full buffers go: a socket's stream, under whatever lock it needs. */
    public interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    /** As much as one socket write carries well. */
    public static final int CAPACITY = 64 * 1024;
    private static final int CRLF_BYTES = 2;

    private final byte[][] prefixes;
    private final byte[] suffix;
    private final Sink sink;
    private final byte[] buffer = new byte[CAPACITY];
    private int used;

    /** @param prefix the bytes before each payload's length, e.g. {@code "PUB subject "} */
    public FrameBuffer(byte[] prefix, Sink sink) {
        this(prefix, new byte[0], sink);
    }

    /** @param suffix bytes written after each payload's closing {@code \r\n} */
    public FrameBuffer(byte[] prefix, byte[] suffix, Sink sink) {
        this(new byte[][] {prefix}, suffix, sink);
    }

    /**
     * @param prefixes the prefixes {@link #add(int, byte[])} chooses from by index, e.g. a
     *                 {@code "PUB subject "} per subject
     */
    public FrameBuffer(byte[][] prefixes, byte[] suffix, Sink sink) {
        this.prefixes = new byte[prefixes.length][];
        for (int i = 0; i < prefixes.length; i++) {
            this.prefixes[i] = prefixes[i].clone();
        }
        this.suffix = suffix.clone();
        this.sink = sink;
    }

    /** Frames {@code payload} with the first prefix. */
    public void add(byte[] payload) throws IOException {
        add(0, payload);
    }

    /** Frames {@code payload} with prefix number {@code prefix}. */
    public void add(int prefix, byte[] payload) throws IOException {
        byte[] head = prefixes[prefix];
        int digits = decimalDigits(payload.length);
        int need = head.length + digits + CRLF_BYTES + payload.length + CRLF_BYTES + suffix.length;
        if (used + need > buffer.length) {
            flush();
            if (need > buffer.length) {
                // one write, so that nothing the sink's owner writes (a NATS PONG) falls inside the frame;
                // a copy costs little beside sending more than 64 KiB
                byte[] frame = new byte[need];
                put(frame, 0, head, digits, payload);
                sink.write(frame, 0, need);
                return;
            }
        }
        used = put(buffer, used, head, digits, payload);
    }

    /** Writes whatever is gathered. */
    public void flush() throws IOException {
        if (used > 0) {
            int n = used;
            used = 0;
            sink.write(buffer, 0, n);
        }
    }

    /** Writes one frame into {@code to} at {@code at}; returns where it ends. */
    private int put(byte[] to, int at, byte[] head, int digits, byte[] payload) {
        System.arraycopy(head, 0, to, at, head.length);
        at += head.length;
        int length = payload.length;
        for (int i = at + digits - 1; i >= at; i--) {
            to[i] = (byte) ('0' + length % 10);
            length /= 10;
        }
        at += digits;
        to[at++] = '\r';
        to[at++] = '\n';
        System.arraycopy(payload, 0, to, at, payload.length);
        at += payload.length;
        to[at++] = '\r';
        to[at++] = '\n';
        System.arraycopy(suffix, 0, to, at, suffix.length);
        return at + suffix.length;
    }

    private static int decimalDigits(int n) {
        int digits = 1;
        while (n >= 10) {
            n /= 10;
            digits++;
        }
        return digits;
    }
}
