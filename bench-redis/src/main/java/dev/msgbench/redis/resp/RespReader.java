package dev.msgbench.redis.resp;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses what a Redis server sends in RESP2, from a buffer of its own: replies of every type
 * ({@code +} simple string, {@code -} error, {@code :} integer, {@code $} bulk string or nil,
 * {@code *} array or nil, arrays nested), and the pushes of a subscribed connection. Whatever
 * way the stream is cut into reads, the same replies come out.
 *
 * <p>IMPLEMENTATION NOTES: the replies a publisher waits for (integers, bulk strings, errors) and
 * the messages a subscriber receives are parsed without an object per reply: a bulk string's
 * bytes are handed over where they lie in the read buffer, copied only when larger than it.
 * Replies no command of the hot path returns (simple strings, nils, arrays) are read whole as
 * values, which allocates. Used by one thread.
 */
public final class RespReader {

    static final int DEFAULT_BUFFER_BYTES = 64 * 1024;
    /**
     * A push's kind tells the pushes apart by its length: "message" 7, "pmessage" 8, "subscribe" 9
     * and "psubscribe" 10 (see {@link #readPush}).
     */
    private static final int MESSAGE_KIND_LENGTH = 7;
    private static final int PATTERN_MESSAGE_KIND_LENGTH = 8;
    private static final int SUBSCRIBE_KIND_LENGTH = 9;
    private static final int PATTERN_SUBSCRIBE_KIND_LENGTH = 10;

    private final InputStream in;
    private final String name;
    private final byte[] buffer;
    private int position;
    private int limit;
    /** Where {@link #readBulkBody} left its bytes. */
    private byte[] bulkArray;
    private int bulkOffset;
    /** For a bulk string larger than the buffer. */
    private byte[] scratch = new byte[0];

    /** @param name the connection's name, for errors */
    public RespReader(InputStream in, String name) {
        this(in, name, DEFAULT_BUFFER_BYTES);
    }

    /** A small buffer lets tests reach the paths of bulk strings larger than it. */
    RespReader(InputStream in, String name, int bufferBytes) {
        this.in = in;
        this.name = name;
        this.buffer = new byte[bufferBytes];
    }

    /** Reads one reply and hands it to the method of {@code replies} that its type calls for. */
    /** Whether a byte is buffered or can be read without blocking. */
    public boolean ready() throws IOException {
        return position < limit || in.available() > 0;
    }

    public void readReply(ReplyHandler replies) throws IOException {
        int type = readByte();
        switch (type) {
            case ':':
                replies.integer(readInteger());
                break;
            case '$': {
                long length = readInteger();
                if (length < 0) {
                    replies.nil();
                } else {
                    int n = readBulkBody(length);
                    replies.bulk(bulkArray, bulkOffset, n);
                }
                break;
            }
            case '-':
                replies.error(readLine());
                break;
            case '+':
                replies.simple(readLine());
                break;
            case '*': {
                long count = readInteger();
                if (count < 0) {
                    replies.nil();
                } else {
                    replies.array(readElements(count));
                }
                break;
            }
            default:
                throw unknownType(type);
        }
    }

    /**
     * Reads one reply as a value: a String (simple string), a {@link RespError}, a Long, a
     * byte[] (bulk string), null (nil), or a List of these (array).
     */
    public Object readValue() throws IOException {
        // not readReply with a handler that keeps the value: readReply's calls to its handler then
        // see only the publishers' handlers, and stay inlined on the path of every reply
        int type = readByte();
        switch (type) {
            case '+':
                return readLine();
            case '-':
                return new RespError(readLine());
            case ':':
                return readInteger();
            case '$': {
                long length = readInteger();
                if (length < 0) {
                    return null;
                }
                int n = readBulkBody(length);
                return Arrays.copyOfRange(bulkArray, bulkOffset, bulkOffset + n);
            }
            case '*': {
                long count = readInteger();
                return count < 0 ? null : readElements(count);
            }
            default:
                throw unknownType(type);
        }
    }

    /**
     * Reads one push of a subscribed connection: a published message, or the confirmation of a
     * SUBSCRIBE or PSUBSCRIBE. Anything else, a refusal among them, ends the connection: a subscriber does
     * nothing else.
     */
    public void readPush(PushHandler pushes) throws IOException {
        long elements = readPushHead();
        // message, pmessage, subscribe, psubscribe, unsubscribe 11 (and the sharded ones) differ in
        // length; we only SUBSCRIBE and PSUBSCRIBE, so comparing lengths tells every push that can come apart
        int kind = readBulkBody(readInteger());
        if (kind == MESSAGE_KIND_LENGTH && elements == 3) {
            readBulk(); // the channel
            int length = readBulk();
            pushes.message(bulkArray, bulkOffset, length);
        } else if (kind == PATTERN_MESSAGE_KIND_LENGTH && elements == 4) {
            readBulk(); // the pattern
            readBulk(); // the channel
            int length = readBulk();
            pushes.message(bulkArray, bulkOffset, length);
        } else if (isSubscription(kind, elements)) {
            readBulk();
            expect(':');
            readInteger();
            pushes.subscribed();
        } else {
            throw unexpectedPush(kind, elements);
        }
    }

    /**
     * {@link #readPush} for a connection that several consumers share: each message goes with the
     * route {@code pushes} makes of its channel (of its pattern, for a pattern's message), and
     * so does each confirmation.
     */
    public void readRoutedPush(RoutedPushHandler pushes) throws IOException {
        long elements = readPushHead();
        int kind = readBulkBody(readInteger());
        if (kind == MESSAGE_KIND_LENGTH && elements == 3) {
            int channel = readBulk();
            int route = pushes.route(bulkArray, bulkOffset, channel);
            int length = readBulk();
            pushes.message(route, bulkArray, bulkOffset, length);
        } else if (kind == PATTERN_MESSAGE_KIND_LENGTH && elements == 4) {
            int pattern = readBulk();
            int route = pushes.route(bulkArray, bulkOffset, pattern);
            readBulk(); // the channel
            int length = readBulk();
            pushes.message(route, bulkArray, bulkOffset, length);
        } else if (isSubscription(kind, elements)) {
            int subscribed = readBulk();
            int route = pushes.route(bulkArray, bulkOffset, subscribed);
            expect(':');
            readInteger();
            pushes.subscribed(route);
        } else {
            throw unexpectedPush(kind, elements);
        }
    }

    /** A push's type and element count, up to its first element's {@code $}; a refusal or anything but an array fails. */
    private long readPushHead() throws IOException {
        int type = readByte();
        if (type != '*') {
            position--;
            Object value = readValue();
            if (value instanceof RespError) {
                throw new ProtocolException("the Redis server refused a subscription on " + name + ": "
                        + ((RespError) value).message());
            }
            throw new ProtocolException("an unexpected push on " + name + ": " + Resp.describe(value));
        }
        long elements = readInteger();
        if (elements < 1) {
            throw new ProtocolException("an unexpected push on " + name + ": " + (elements < 0 ? "a nil array"
                    : "an empty array"));
        }
        expect('$');
        return elements;
    }

    private static boolean isSubscription(int kind, long elements) {
        return (kind == SUBSCRIBE_KIND_LENGTH || kind == PATTERN_SUBSCRIBE_KIND_LENGTH) && elements == 3;
    }

    /** Reads the rest of a push no subscriber gets, for the message. */
    private ProtocolException unexpectedPush(int kind, long elements) throws IOException {
        String what = new String(bulkArray, bulkOffset, kind, StandardCharsets.ISO_8859_1);
        readElements(elements - 1);
        return new ProtocolException("an unexpected push on " + name + ": '" + Resp.abbreviate(what) + "' of "
                + elements + " elements");
    }

    private List<Object> readElements(long count) throws IOException {
        List<Object> elements = new ArrayList<>((int) Math.min(count, 1024));
        for (long i = 0; i < count; i++) {
            elements.add(readValue());
        }
        return elements;
    }

    private ProtocolException unknownType(int type) {
        return new ProtocolException("a reply of unknown type " + Resp.printable(type) + " on " + name
                + " (RESP2 has + - : $ *)");
    }

    private void expect(int type) throws IOException {
        int b = readByte();
        if (b != type) {
            throw new ProtocolException("expected '" + (char) type + "' but got " + Resp.printable(b) + " on " + name);
        }
    }

    /**
     * Reads one bulk string and returns its length; its bytes are then at {@link #bulkArray} from
     * {@link #bulkOffset}.
     */
    private int readBulk() throws IOException {
        expect('$');
        return readBulkBody(readInteger());
    }

    /** {@link #readBulk()} after the {@code $} and the length: in the buffer itself when they fit, copied only when not. */
    private int readBulkBody(long length) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE - 2) {
            throw new ProtocolException("a bulk string of " + length + " bytes on " + name);
        }
        int n = (int) length;
        if (n + 2 <= buffer.length) {
            ensureBuffered(n + 2);
            bulkArray = buffer;
            bulkOffset = position;
            position += n + 2;
            if (buffer[position - 2] != '\r' || buffer[position - 1] != '\n') {
                throw new ProtocolException("a bulk string of " + n + " bytes not followed by CR LF on " + name);
            }
        } else {
            if (scratch.length < n) {
                scratch = new byte[n];
            }
            for (int copied = 0; copied < n; ) {
                if (position == limit) {
                    fill();
                }
                int chunk = Math.min(n - copied, limit - position);
                System.arraycopy(buffer, position, scratch, copied, chunk);
                position += chunk;
                copied += chunk;
            }
            bulkArray = scratch;
            bulkOffset = 0;
            expectByte('\r');
            expectByte('\n');
        }
        return n;
    }

    /** Makes the next {@code n} bytes available from {@link #position} on, moving what is left to the front. */
    private void ensureBuffered(int n) throws IOException {
        if (limit - position >= n) {
            return;
        }
        if (position + n > buffer.length) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        while (limit - position < n) {
            int got = in.read(buffer, limit, buffer.length - limit);
            if (got < 0) {
                throw closed();
            }
            limit += got;
        }
    }

    /**
     * Reads once into an empty buffer, waiting as the stream does. A timeout of the stream's leaves
     * the reader as it was: nothing of a reply had been taken.
     */
    public void fillEmpty() throws IOException {
        if (position == limit) {
            fill();
        }
    }

    private void fill() throws IOException {
        int n = in.read(buffer);
        if (n < 0) {
            throw closed();
        }
        position = 0;
        limit = n;
    }

    private IOException closed() {
        return new IOException("the Redis server closed " + name);
    }

    private int readByte() throws IOException {
        if (position == limit) {
            fill();
        }
        return buffer[position++] & 0xff;
    }

    private long readInteger() throws IOException {
        long value = 0;
        boolean negative = false;
        int b = readByte();
        if (b == '-') {
            negative = true;
            b = readByte();
        }
        while (b != '\r') {
            if (b < '0' || b > '9') {
                throw new ProtocolException("a malformed integer on " + name);
            }
            value = value * 10 + (b - '0');
            b = readByte();
        }
        expectByte('\n');
        return negative ? -value : value;
    }

    private void expectByte(int expected) throws IOException {
        int b = readByte();
        if (b != expected) {
            throw new ProtocolException("expected " + Resp.printable(expected) + " but got " + Resp.printable(b)
                    + " on " + name);
        }
    }

    /** A simple string's or an error's text: ASCII in practice, read as Latin-1 so no byte is lost. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = readByte()) != '\r') {
            line.append((char) b);
        }
        expectByte('\n');
        return line.toString();
    }
}
