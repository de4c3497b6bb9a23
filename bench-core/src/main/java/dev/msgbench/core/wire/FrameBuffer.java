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
 * <p>Used by one thread. The control line is built again only when the payload length changes:
 * with one --size it never does, so adding a message allocates nothing; with a size
 * distribution each message is framed at its own length.
 */
public final class FrameBuffer {

    /** Where full buffers go: a socket's stream, under whatever lock it needs. */
    public interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    /** As much as one socket write carries well. */
    public static final int CAPACITY = 64 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};

    private final byte[] prefix;
    private final byte[] suffix;
    private final Sink sink;
    private final byte[] buffer = new byte[CAPACITY];
    private int used;
    private byte[] head = new byte[0];
    private int headLength = -1;

    /** @param prefix the bytes before each payload's length, e.g. {@code "PUB subject "} */
    public FrameBuffer(byte[] prefix, Sink sink) {
        this(prefix, new byte[0], sink);
    }

    /** @param suffix bytes written after each payload's closing {@code \r\n} */
    public FrameBuffer(byte[] prefix, byte[] suffix, Sink sink) {
        this.prefix = prefix.clone();
        this.suffix = suffix.clone();
        this.sink = sink;
    }

    public void add(byte[] payload) throws IOException {
        byte[] line = head(payload.length);
        int need = line.length + payload.length + CRLF.length + suffix.length;
        if (used + need > buffer.length) {
            flush();
            if (need > buffer.length) {
                // one write, so that nothing the sink's owner writes (a NATS PONG) falls inside the frame;
                // a copy costs little beside sending more than 64 KiB
                byte[] frame = new byte[need];
                System.arraycopy(line, 0, frame, 0, line.length);
                System.arraycopy(payload, 0, frame, line.length, payload.length);
                System.arraycopy(CRLF, 0, frame, line.length + payload.length, CRLF.length);
                System.arraycopy(suffix, 0, frame, need - suffix.length, suffix.length);
                sink.write(frame, 0, need);
                return;
            }
        }
        System.arraycopy(line, 0, buffer, used, line.length);
        used += line.length;
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

    private byte[] head(int payloadLength) {
        if (payloadLength != headLength) {
            byte[] digits = (payloadLength + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] line = new byte[prefix.length + digits.length];
            System.arraycopy(prefix, 0, line, 0, prefix.length);
            System.arraycopy(digits, 0, line, prefix.length, digits.length);
            head = line;
            headLength = payloadLength;
        }
        return head;
    }
}
