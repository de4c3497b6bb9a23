package dev.msgbench.redis.resp;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.msgbench.core.UserError;
import dev.msgbench.core.wire.ClientSockets;

/**
 * A connection that speaks RESP itself, for {@code --redis-client direct}: a publisher's, whose
 * reader hands each reply, in order, to a {@link ReplyHandler}, or a subscriber's, whose reader
 * hands each pushed message to a {@link PushHandler}. No command object, no future, no hand-off
 * to an I/O thread per message. It authenticates with the credentials it is given (never
 * printed) and names itself (CLIENT SETNAME).
 *
 * <p>IMPLEMENTATION NOTES: one thread writes (the producer, or the subscriber's constructor), one
 * reads (this connection's reader, or a producer that reads its own replies), through a {@link RespReader}.
 */
public final class RespConnection implements AutoCloseable {

    /** One pass of a reader thread's loop. */
    private interface ReadStep {
        void run() throws IOException;
    }

    private final String name;
    private final RespReader in;
    private final OutputStream out;
    private final Closeable transport;
    private Thread reader;
    private volatile boolean closing;

    /**
     * A connection over a pair of streams, a socket's or a test's; {@code transport} is closed
     * with it. For a server, {@link #open} also authenticates and names the connection.
     */
    public RespConnection(String name, InputStream in, OutputStream out, Closeable transport) {
        this.name = name;
        this.in = new RespReader(in, name);
        this.out = out;
        this.transport = transport;
    }

    /**
     * Connects, authenticates when there is a password, and names the connection.
     *
     * @param username null for the default user
     * @param password null for none: no AUTH is sent
     * @throws UserError when the server cannot be reached or refuses the password
     */
    public static RespConnection open(String host, int port, String username, String password, String name,
                                      Duration timeout) throws IOException {
        String where = host + ":" + port;
        Socket socket = ClientSockets.unconnected();
        try {
            socket.setTcpNoDelay(true);
            try {
                socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            } catch (IOException e) {
                throw new UserError("--url: no Redis server answered at " + where + " within " + timeout.toSeconds()
                        + " s (" + e.getMessage() + "); check the address, or omit the flag to start a local broker");
            }
            socket.setSoTimeout((int) timeout.toMillis());
            RespConnection c = new RespConnection(name, socket.getInputStream(), socket.getOutputStream(), socket);
            try {
                c.handshake(where, username, password);
            } catch (IOException e) {
                // a TLS port drops (or alerts) a client that speaks plaintext to it
                throw new UserError("--url: the Redis server at " + where + " did not answer the login and CLIENT SETNAME ("
                        + e.getMessage() + "); a server that demands TLS does that, and --redis-client direct does not "
                        + "speak TLS: use --redis-client lettuce with rediss://" + where, e);
            }
            socket.setSoTimeout(0);
            return c;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** AUTH when there is a password, then CLIENT SETNAME; before the reader starts. */
    void handshake(String where, String username, String password) throws IOException {
        if (password != null) {
            List<String> auth = new ArrayList<>(List.of("AUTH"));
            if (username != null) {
                auth.add(username);
            }
            auth.add(password);
            // the server's words name the problem (WRONGPASS ...) and hold no secret
            call(auth, "--url: the Redis server at " + where + " refused the password: ");
        }
        call(List.of("CLIENT", "SETNAME", name), "the Redis server at " + where + " refused CLIENT SETNAME: ");
    }

    private void call(List<String> command, String refusal) throws IOException {
        out.write(Resp.encode(command.toArray(String[]::new)));
        out.flush();
        Object reply = in.readValue();
        if (reply instanceof RespError) {
            throw new UserError(refusal + ((RespError) reply).message());
        }
        if (!(reply instanceof String)) {
            throw new IOException(name + ": " + command.get(0) + " answered with " + Resp.describe(reply)
                    + ", not a simple string");
        }
    }

    /** Starts the thread that reads pushes of a subscribed connection; call once, after SUBSCRIBE. */
    public void startPushes(PushHandler pushes) {
        startReader(() -> in.readPush(pushes), pushes::ended);
    }

    /** As {@link #startPushes}, for a connection whose pushes go to several consumers by route. */
    public void startRoutedPushes(RoutedPushHandler pushes) {
        startReader(() -> in.readRoutedPush(pushes), pushes::ended);
    }

    /** Starts the thread that reads replies; call once, before the first command. */
    public void start(ReplyHandler replies) {
        startReader(() -> in.readReply(replies), replies::ended);
    }

    private void startReader(ReadStep step, Consumer<IOException> ended) {
        reader = new Thread(() -> {
            IOException cause = null;
            try {
                while (true) {
                    step.run();
                }
            } catch (IOException e) {
                cause = closing ? null : e;
            } catch (RuntimeException e) {
                cause = new IOException("the reader of " + name + " failed: " + e, e);
            } finally {
                ended.accept(cause);
            }
        }, name + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** For a caller that reads its replies itself, with no reader thread: whether one has begun to arrive. */
    public boolean replyReady() throws IOException {
        return in.ready();
    }

    /**
     * For a caller that reads its replies itself: waits at most {@code timeoutMillis} for a reply
     * to begin to arrive; false when none did. The timeout holds only while no byte of a reply is
     * buffered, so it never cuts one in two. On a test's streams, which have no timeout, it waits.
     */
    public boolean awaitReply(int timeoutMillis) throws IOException {
        if (in.ready()) {
            return true;
        }
        if (!(transport instanceof Socket socket)) {
            in.fillEmpty();
            return true;
        }
        socket.setSoTimeout(timeoutMillis);
        try {
            in.fillEmpty();
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } finally {
            socket.setSoTimeout(0);
        }
    }

    /** For a caller that reads its replies itself: reads one, waiting until it is whole. */
    public void readReply(ReplyHandler replies) throws IOException {
        in.readReply(replies);
    }

    /** Sends one command whose reply the reader thread handles. */
    public void send(String... command) throws IOException {
        byte[] bytes = Resp.encode(command);
        out.write(bytes, 0, bytes.length);
    }

    /** Called by the one writing thread. */
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    /** Closes the connection and waits (briefly) for the reader to end: its handler has then heard the last reply. */
    @Override
    public void close() throws IOException {
        closing = true;
        transport.close();
        if (reader != null) {
            try {
                reader.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
