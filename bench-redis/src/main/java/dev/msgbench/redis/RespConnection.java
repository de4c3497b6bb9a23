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
 * A connection that writes RESP commands itself and hands each reply, in order, to a
 * {@link ReplyHandler}: no command object, no future, no hand-off to an I/O thread per command. It
 * authenticates with what the URL carries (never printed) and then only pipelines commands whose
 * replies are integers, as PUBLISH's are.
 *
 * <p>IMPLEMENTATION NOTES: one thread writes (the producer), one reads (this connection's
 * reader); replies are parsed from a buffer of our own, without a String per reply.
 */
final class RespConnection implements AutoCloseable {

    /** Where a connection's replies go, on its reader thread. */
    interface ReplyHandler {
        void integer(long value);

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

    /** Starts the thread that reads replies; call once, before the first command. */
    void start(ReplyHandler replies) {
        reader = new Thread(() -> readReplies(replies), name + "-reader");
        reader.setDaemon(true);
        reader.start();
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

    private int readByte() throws IOException {
        if (readPosition == readLimit) {
            int n = in.read(readBuffer);
            if (n < 0) {
                throw new IOException("the Redis server closed " + name);
            }
            readPosition = 0;
            readLimit = n;
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
