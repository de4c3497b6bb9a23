package dev.msgbench.nats.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a NATS server sends a client, read in bulk into one buffer and cut into operations: MSG
 * payloads are handed over in place (no copy, no allocation per message), every other line
 * (PING, PONG, +OK, -ERR, INFO) as text, since they are rare.
 *
 * <p>IMPLEMENTATION NOTES: {@code [start, end)} of {@code buffer} holds bytes read but not yet
 * parsed. An operation cut by a read is completed by compacting it to the front and reading
 * more; a payload larger than the buffer grows it to fit (up to {@link #MAX_PAYLOAD_BYTES}), so
 * each message is handed over as one contiguous range.
 */
public final class ServerStream {

    /** What the client does with each operation; called on the reading thread. */
    public interface Handler {

        /**
         * A message's payload: valid only during the call.
         *
         * @param sid the subscription's id, as the client gave it in SUB
         */
        void message(long sid, byte[] buffer, int offset, int length) throws IOException;

        /** Any other line, without its CR LF. */
        void line(String line) throws IOException;
    }

    /** INFO lines of large clusters list every server; anything longer is not NATS. */
    static final int MAX_LINE_BYTES = 1 << 20;
    /** The largest max_payload a server can be configured with. */
    static final int MAX_PAYLOAD_BYTES = 64 << 20;

    private final InputStream in;
    private byte[] buffer;
    private int start;
    private int end;
    /** Where the search for the current line's LF resumes after a read: bytes before it hold none. */
    private int scanned;

    public ServerStream(InputStream in) {
        this(in, 64 * 1024);
    }

    ServerStream(InputStream in, int initialBytes) {
        this.in = in;
        this.buffer = new byte[initialBytes];
    }

    /** Reads and hands over one operation; throws at the end of the stream or on a protocol error. */
    public void next(Handler handler) throws IOException {
        int lf = lineEnd();
        int lineEnd = lf > start && buffer[lf - 1] == '\r' ? lf - 1 : lf;
        if (startsWith("MSG ")) {
            message(handler, lineEnd, lf);
        } else if (startsWith("HMSG ")) {
            throw new IOException("the server sent a message with headers (HMSG), which no subscription of ours asked "
                    + "for: '" + text(start, lineEnd) + "'");
        } else {
            String line = new String(buffer, start, lineEnd - start, StandardCharsets.UTF_8);
            start = lf + 1;
            scanned = start;
            handler.line(line);
        }
    }

    /** MSG subject sid [reply-to] #bytes, then the payload and CR LF. */
    private void message(Handler handler, int lineEnd, int lf) throws IOException {
        int sizeFrom = lastSpace(lineEnd) + 1;
        int subjectEnd = indexOf(' ', start + 4, lineEnd);
        int sidEnd = subjectEnd < 0 ? -1 : indexOf(' ', subjectEnd + 1, lineEnd);
        if (sizeFrom <= start + 4 || subjectEnd <= start + 4 || sidEnd < 0 || sidEnd >= sizeFrom) {
            throw malformed(lineEnd);
        }
        long sid = number(subjectEnd + 1, sidEnd, lineEnd);
        long size = number(sizeFrom, lineEnd, lineEnd);
        if (size > MAX_PAYLOAD_BYTES) {
            throw new IOException("a message of " + size + " bytes is more than any NATS server sends: '"
                    + text(start, lineEnd) + "'");
        }
        int payload = lf + 1;
        int frameEnd = payload + (int) size + 2;
        if (frameEnd > end) {
            // ensure moves the bytes to the front of the buffer: keep positions relative to the line
            int lineLength = lineEnd - start;
            int payloadOffset = payload - start;
            ensure(frameEnd - start);
            lineEnd = start + lineLength;
            payload = start + payloadOffset;
            frameEnd = payload + (int) size + 2;
        }
        if (buffer[frameEnd - 2] != '\r' || buffer[frameEnd - 1] != '\n') {
            throw new IOException("a message of " + size + " bytes was not followed by CR LF: '"
                    + text(start, lineEnd) + "'");
        }
        start = frameEnd;
        scanned = start;
        handler.message(sid, buffer, payload, (int) size);
    }

    /** The index of the LF ending the line at {@code start}, reading as much as that takes. */
    private int lineEnd() throws IOException {
        while (true) {
            for (int i = Math.max(scanned, start); i < end; i++) {
                if (buffer[i] == '\n') {
                    return i;
                }
            }
            if (end - start >= MAX_LINE_BYTES) {
                throw new IOException("a protocol line longer than " + MAX_LINE_BYTES + " bytes");
            }
            scanned = end;
            int have = end - start;
            ensure(have + 1);
        }
    }

    /** Reads until {@code [start, start + bytes)} is in the buffer: compacts, grows, then fills. */
    private void ensure(int bytes) throws IOException {
        if (start > 0) {
            int have = end - start;
            System.arraycopy(buffer, start, buffer, 0, have);
            scanned -= start;
            start = 0;
            end = have;
        }
        if (bytes > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(bytes, buffer.length * 2));
        }
        while (end < bytes) {
            int n;
            try {
                n = in.read(buffer, end, buffer.length - end);
            } catch (SocketTimeoutException e) {
                throw new IOException("the server sent no complete operation in time", e);
            }
            if (n < 0) {
                throw new IOException("the server closed the connection");
            }
            end += n;
        }
    }

    private boolean startsWith(String op) {
        if (end - start < op.length()) {
            return false;
        }
        for (int i = 0; i < op.length(); i++) {
            if (buffer[start + i] != op.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private int lastSpace(int lineEnd) {
        for (int i = lineEnd - 1; i >= start; i--) {
            if (buffer[i] == ' ') {
                return i;
            }
        }
        return -1;
    }

    private int indexOf(char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buffer[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private long number(int from, int to, int lineEnd) throws IOException {
        if (from >= to || to - from > 18) {
            throw malformed(lineEnd);
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            int digit = buffer[i] - '0';
            if (digit < 0 || digit > 9) {
                throw malformed(lineEnd);
            }
            n = n * 10 + digit;
        }
        return n;
    }

    private IOException malformed(int lineEnd) {
        return new IOException("a malformed MSG line from the server: '" + text(start, lineEnd) + "'");
    }

    private String text(int from, int to) {
        String s = new String(buffer, from, to - from, StandardCharsets.UTF_8);
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
