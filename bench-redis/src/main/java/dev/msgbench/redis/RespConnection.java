package dev.msgbench.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;
import dev.msgbench.redis.broker.Resp;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;

/**
 * A connection that speaks RESP itself, for {@code --redis-client direct}: a publisher's, whose
 * reader hands each reply, in order, to a {@link ReplyHandler}, or a subscriber's, whose
 * reader hands each pushed message to a {@link PushHandler}. No command object, no future, no
 * hand-off to an I/O thread per message. It authenticates with what the URL carries (never
 * printed) and names itself (CLIENT SETNAME).
 *
 * <p>IMPLEMENTATION NOTES: one thread writes (the producer, or the subscriber's constructor), one
 * reads (this connection's reader); everything is parsed from a buffer of our own, without an
 * object per reply or message.
 */
final class RespConnection implements AutoCloseable {

    /** Where a connection's replies go, on its reader thread. */
    interface ReplyHandler {
        void integer(long value);

        /** A bulk string (XADD's stream ID); its bytes are not needed. */
        void bulk();

        void error(String message);

        /** The connection failed or closed; no further reply comes. */
        void ended(IOException cause);
    }

    private static final int READ_BUFFER_BYTES = 64 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String name;
    private final byte[] readBuffer = new byte[READ_BUFFER_BYTES];
    private int readPosition;
    private int readLimit;
    /** Where {@link #readBulk()} left its bytes. */
    private byte[] bulkArray;
    private int bulkOffset;
    /** For a bulk string larger than the read buffer. */
    private byte[] scratch = new byte[0];
    private Thread reader;
    private volatile boolean closing;

    private RespConnection(Socket socket, String name) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.name = name;
    }

    /**
     * Connects, authenticates when the URL has a password, and names the connection.
     *
     * @throws UserError when the server cannot be reached, wants TLS, or refuses the password
     */
    static RespConnection open(String url, String name, Duration timeout) throws IOException {
        RedisURI uri = RedisConnector.parse(url);
        if (uri.isSsl()) {
            throw new UserError("--url: '" + uri.getHost() + ":" + uri.getPort() + "' uses TLS, which --redis-client "
                    + "direct does not speak; use --redis-client lettuce");
        }
        String where = uri.getHost() + ":" + uri.getPort();
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            try {
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), (int) timeout.toMillis());
            } catch (IOException e) {
                throw new UserError("--url: no Redis server answered at " + where + " within " + timeout.toSeconds()
                        + " s (" + e.getMessage() + "); check the address, or omit the flag to start a local broker");
            }
            socket.setSoTimeout((int) timeout.toMillis());
            RespConnection c = new RespConnection(socket, name);
            RedisCredentials credentials = uri.getCredentialsProvider() == null ? null
                    : uri.getCredentialsProvider().resolveCredentials().block(timeout);
            if (credentials != null && credentials.hasPassword()) {
                List<String> auth = new ArrayList<>(List.of("AUTH"));
                if (credentials.hasUsername()) {
                    auth.add(credentials.getUsername());
                }
                auth.add(new String(credentials.getPassword()));
                // the server's words name the problem (WRONGPASS ...) and hold no secret
                c.handshake(auth, "--url: the Redis server at " + where + " refused the password: ");
            }
            c.handshake(List.of("CLIENT", "SETNAME", name), "the Redis server at " + where + " refused CLIENT SETNAME: ");
            socket.setSoTimeout(0);
            return c;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void handshake(List<String> command, String refusal) throws IOException {
        out.write(Resp.encode(command.toArray(String[]::new)));
        out.flush();
        int type = readByte();
        String line = readLine();
        if (type == '-') {
            throw new UserError(refusal + line);
        }
        if (type != '+') {
            throw new IOException(name + ": unexpected reply to " + command.get(0) + ": '" + (char) type + line + "'");
        }
    }

    /** Where a subscribed connection's pushes go, on its reader thread. */
    interface PushHandler {
        /** A published message; the bytes are valid only during the call. */
        void message(byte[] data, int offset, int length);

        /** The server confirmed one channel's subscription. */
        void subscribed();

        /** The connection failed or closed; no further push comes. */
        void ended(IOException cause);
    }

    /** Starts the thread that reads pushes of a subscribed connection; call once, after SUBSCRIBE. */
    void startPushes(PushHandler pushes) {
        reader = new Thread(() -> readPushes(pushes), name + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the thread that reads replies; call once, before the first command. */
    void start(ReplyHandler replies) {
        reader = new Thread(() -> readReplies(replies), name + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Sends one command whose reply the reader thread handles. */
    void send(String... command) throws IOException {
        byte[] bytes = Resp.encode(command);
        out.write(bytes, 0, bytes.length);
    }

    /** Called by the one writing thread. */
    void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    private void readReplies(ReplyHandler replies) {
        IOException cause = null;
        try {
            while (true) {
                int type = readByte();
                if (type == ':') {
                    replies.integer(readInteger());
                } else if (type == '$') {
                    long length = readInteger();
                    if (length < 0) {
                        replies.error("a nil reply");
                    } else {
                        readBulkBody(length);
                        replies.bulk();
                    }
                } else if (type == '-') {
                    replies.error(readLine());
                } else {
                    throw new IOException("unexpected reply type '" + (char) type + "' on " + name);
                }
            }
        } catch (IOException e) {
            cause = closing ? null : e;
        } finally {
            replies.ended(cause);
        }
    }

    private void readPushes(PushHandler pushes) {
        IOException cause = null;
        try {
            while (true) {
                int type = readByte();
                if (type == '-') {
                    throw new IOException("the Redis server refused a subscription on " + name + ": " + readLine());
                }
                if (type != '*') {
                    throw new IOException("unexpected push type '" + (char) type + "' on " + name);
                }
                long elements = readInteger();
                // the kind's length tells the pushes apart: message 7, subscribe 9 (pmessage 8,
                // psubscribe 10 and unsubscribe 11 never come: we only SUBSCRIBE)
                int kind = readBulk();
                if (kind == 7 && elements == 3) {
                    readBulk(); // the channel
                    int length = readBulk();
                    pushes.message(bulkArray, bulkOffset, length);
                } else if (kind == 9 && elements == 3) {
                    readBulk();
                    expect(':');
                    readInteger();
                    pushes.subscribed();
                } else {
                    throw new IOException("an unexpected push of " + elements + " elements on " + name);
                }
            }
        } catch (IOException e) {
            cause = closing ? null : e;
        } finally {
            pushes.ended(cause);
        }
    }

    private void expect(int type) throws IOException {
        int b = readByte();
        if (b != type) {
            throw new IOException("expected '" + (char) type + "' but got '" + (char) b + "' on " + name);
        }
    }

    /**
     * Reads one bulk string and returns its length; its bytes are then at {@link #bulkArray} from
     * {@link #bulkOffset}: in the read buffer itself when they fit, copied only when they do not.
     */
    private int readBulk() throws IOException {
        expect('$');
        return readBulkBody(readInteger());
    }

    /** {@link #readBulk()} after the {@code $} and the length. */
    private int readBulkBody(long length) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE - 2) {
            throw new IOException("a bulk string of " + length + " bytes on " + name);
        }
        int n = (int) length;
        if (n + 2 <= readBuffer.length) {
            ensureBuffered(n + 2);
            bulkArray = readBuffer;
            bulkOffset = readPosition;
            readPosition += n + 2;
        } else {
            if (scratch.length < n) {
                scratch = new byte[n];
            }
            for (int copied = 0; copied < n; ) {
                if (readPosition == readLimit) {
                    fill();
                }
                int chunk = Math.min(n - copied, readLimit - readPosition);
                System.arraycopy(readBuffer, readPosition, scratch, copied, chunk);
                readPosition += chunk;
                copied += chunk;
            }
            readByte(); // '\r'
            readByte(); // '\n'
            bulkArray = scratch;
            bulkOffset = 0;
        }
        return n;
    }

    /** Makes the next {@code n} bytes available from {@link #readPosition} on, moving what is left to the front. */
    private void ensureBuffered(int n) throws IOException {
        if (readLimit - readPosition >= n) {
            return;
        }
        if (readPosition + n > readBuffer.length) {
            System.arraycopy(readBuffer, readPosition, readBuffer, 0, readLimit - readPosition);
            readLimit -= readPosition;
            readPosition = 0;
        }
        while (readLimit - readPosition < n) {
            int got = in.read(readBuffer, readLimit, readBuffer.length - readLimit);
            if (got < 0) {
                throw new IOException("the Redis server closed " + name);
            }
            readLimit += got;
        }
    }

    private void fill() throws IOException {
        int n = in.read(readBuffer);
        if (n < 0) {
            throw new IOException("the Redis server closed " + name);
        }
        readPosition = 0;
        readLimit = n;
    }

    private int readByte() throws IOException {
        if (readPosition == readLimit) {
            fill();
        }
        return readBuffer[readPosition++] & 0xff;
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
                throw new IOException("a malformed integer reply on " + name);
            }
            value = value * 10 + (b - '0');
            b = readByte();
        }
        readByte(); // '\n'
        return negative ? -value : value;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = readByte()) != '\r') {
            line.append((char) b);
        }
        readByte(); // '\n'
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        closing = true;
        socket.close();
        if (reader != null) {
            try {
                reader.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
