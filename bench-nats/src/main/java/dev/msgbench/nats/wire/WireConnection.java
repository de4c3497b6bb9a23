package dev.msgbench.nats.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.UserError;
import dev.msgbench.core.wire.ClientSockets;
import dev.msgbench.core.wire.FrameBuffer;

/**
 * A connection that speaks the NATS client protocol itself: INFO and CONNECT when it opens, then
 * PUB lines written by the caller, PING/PONG for flushes and the server's keep-alive, -ERR
 * recorded as a failure. A publishing connection never subscribes, so the server sends it
 * nothing else; a receiving one (opened with a {@link MessageReceiver}) subscribes with
 * {@link #subscribe} and gets each message on its reader thread, in place, with no hand-off to
 * another thread. Plain TCP only; user/password or token come from the URL and are sent only in
 * CONNECT. Its failures (an -ERR, a lost connection) go to a {@link FirstFailure} that the
 * producer checks before each message, and to the receiver.
 *
 * <p>IMPLEMENTATION NOTES: the producer writes from its own thread and a reader thread answers
 * the server's PINGs, so every socket write holds {@code writeLock}; the producer takes it once
 * per batch, not per message.
 */
public final class WireConnection implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] PING = "PING\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PONG = "PONG\r\n".getBytes(StandardCharsets.US_ASCII);
    /** INFO lines of large clusters list every server; anything longer is not NATS. */
    private static final int MAX_LINE_BYTES = ServerStream.MAX_LINE_BYTES;

    private final Closeable transport;
    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private final Object pongLock = new Object();
    private final String name;
    private final FirstFailure failures;
    private final long maxPayload;
    private final String serverVersion;
    private final Thread reader;
    private final ServerStream stream;
    /** Where MSG payloads go, or null on a publishing connection, which never subscribes. */
    private final MessageReceiver receiver;
    private long pingsSent;      // guarded by writeLock
    /** Calls of {@link #write}, each a batch of commands; guarded by writeLock. */
    private long writes;
    /** {@link #writes} when the last PING was written; guarded by writeLock. */
    private long writesPinged = -1;
    /** Written under pongLock by the reader; volatile so that a flush can watch it without the lock. */
    private volatile long pongsReceived;
    /** How long a flush yields, watching for its PONG, before it waits on the lock: a wait wakes late on a VM. */
    private static final long PONG_YIELD_NANOS = 100_000;
    private volatile boolean closing;
    private volatile boolean readerDone;

    /** What a receiving connection does with the messages of its subscriptions; called on its reader thread. */
    public interface MessageReceiver {

        /** A message's payload, valid only during the call. */
        void message(long sid, byte[] buffer, int offset, int length);

        /** The connection failed (an -ERR, a lost connection); it has also gone to the connection's FirstFailure. */
        void failed(IOException failure);
    }

    private WireConnection(InputStream in, OutputStream out, Closeable transport, String name, FirstFailure failures,
                           long maxPayload, String serverVersion, MessageReceiver receiver) {
        this.transport = transport;
        this.stream = new ServerStream(in);
        this.receiver = receiver;
        this.in = in;
        this.out = out;
        this.name = name;
        this.failures = failures;
        this.maxPayload = maxPayload;
        this.serverVersion = serverVersion;
        this.reader = new Thread(this::readUntilClosed, name + "-reader");
        this.reader.setDaemon(true);
    }

    /**
     * Connects to the first server of {@code url} that answers, starting at {@code start} (so
     * that producers spread over a cluster's servers as jnats' random order would spread them).
     *
     * @param startedBySuite whether the suite started the server (a silent one is then not --url's fault)
     * @throws UserError when the list is malformed, no server answers, or the server refuses us
     */
    public static WireConnection open(String url, int start, String name, Duration timeout, boolean startedBySuite,
                                      FirstFailure failures) throws IOException {
        return open(url, start, name, timeout, startedBySuite, failures, null);
    }

    /**
     * As {@link #open(String, int, String, Duration, boolean, FirstFailure)}, handing received messages to
     * {@code receiver}.
     */
    public static WireConnection open(String url, int start, String name, Duration timeout, boolean startedBySuite,
                                      FirstFailure failures, MessageReceiver receiver) throws IOException {
        List<ServerAddress> servers = ServerAddress.list(url);
        IOException last = null;
        for (int i = 0; i < servers.size(); i++) {
            ServerAddress a = servers.get((start + i) % servers.size());
            Socket socket = ClientSockets.unconnected();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(a.host(), a.port()), (int) timeout.toMillis());
                socket.setSoTimeout((int) timeout.toMillis());
                WireConnection c = handshake(new BufferedInputStream(socket.getInputStream()), socket.getOutputStream(),
                        socket, a, name, failures, receiver);
                socket.setSoTimeout(0);
                c.startReading();
                return c;
            } catch (IOException e) {
                socket.close();
                last = e;
            } catch (RuntimeException e) {
                socket.close();
                throw e;
            }
        }
        if (startedBySuite) {
            throw new UserError(SuiteServerSilence.describe(servers.toString(), timeout), last);
        }
        throw new UserError("--url: no NATS server answered at " + servers + " within " + timeout.toSeconds()
                + " s (" + (last == null ? "no address" : last.getMessage()) + ")");
    }

    /**
     * INFO, CONNECT and a PING answered: the server has accepted us. The streams are a socket's,
     * or a test's; {@code transport} is closed with the connection.
     */
    static WireConnection handshake(InputStream in, OutputStream out, Closeable transport, ServerAddress a, String name,
                                    FirstFailure failures) throws IOException {
        return handshake(in, out, transport, a, name, failures, null);
    }

    static WireConnection handshake(InputStream in, OutputStream out, Closeable transport, ServerAddress a, String name,
                                    FirstFailure failures, MessageReceiver receiver) throws IOException {
        String first = readLine(in);
        if (!first.startsWith("INFO ")) {
            throw new IOException(a + " is not a NATS server: it greeted with '" + abbreviate(first) + "'");
        }
        JsonNode info = JSON.readTree(first.substring(5));
        if (info.path("tls_required").asBoolean(false)) {
            throw new UserError("--url: the NATS server at " + a + " requires TLS, which --nats-client direct does not "
                    + "speak; use --nats-client jnats");
        }
        Map<String, Object> connect = new LinkedHashMap<>();
        connect.put("verbose", false);
        connect.put("pedantic", false);
        connect.put("tls_required", false);
        connect.put("name", name);
        connect.put("lang", "java");
        connect.put("version", "msgbench-direct");
        connect.put("protocol", 1);
        connect.put("echo", true);
        if (a.user() != null) {
            connect.put("user", a.user());
            connect.put("pass", a.password());
        }
        if (a.token() != null) {
            connect.put("auth_token", a.token());
        }
        out.write(("CONNECT " + JSON.writeValueAsString(connect) + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(PING);
        out.flush();
        while (true) {
            String line = readLine(in);
            if (line.equals("PONG")) {
                break;
            } else if (line.startsWith("-ERR")) {
                // the server's words name the problem (e.g. 'Authorization Violation') and hold no secret
                throw new UserError("--url: the NATS server at " + a + " refused the connection: " + line.substring(4).trim());
            } else if (line.equals("PING")) {
                out.write(PONG);
            }
            // +OK and a second INFO need no answer
        }
        return new WireConnection(in, out, transport, name, failures, info.path("max_payload").asLong(Long.MAX_VALUE),
                info.path("version").asText("unknown"), receiver);
    }

    /** Starts the thread that answers the server; once, after the handshake. */
    void startReading() {
        reader.start();
    }

    public long maxPayload() {
        return maxPayload;
    }

    public String serverVersion() {
        return serverVersion;
    }

    /**
     * A buffer of PUB commands to {@code subject} for the producer's thread, written to this
     * connection when full and at {@link FrameBuffer#flush()}.
     *
     * @param replyTo the reply subject every message carries, or null
     */
    public FrameBuffer publishFrames(String subject, String replyTo) {
        return publishFrames(List.of(subject), replyTo);
    }

    /**
     * As {@link #publishFrames(String, String)} with a PUB line per subject, built here once:
     * {@link FrameBuffer#add(int, byte[])} sends to {@code subjects.get(index)}.
     */
    public FrameBuffer publishFrames(List<String> subjects, String replyTo) {
        return publishFrames(subjects, java.util.Collections.nCopies(subjects.size(), replyTo));
    }

    /**
     * As {@link #publishFrames(List, String)} with a reply subject per PUB line (each null or a
     * subject): the one buffer of the producer streams that share this connection.
     */
    public FrameBuffer publishFrames(List<String> subjects, List<String> replyTos) {
        byte[][] lines = new byte[subjects.size()][];
        for (int i = 0; i < lines.length; i++) {
            String replyTo = replyTos.get(i);
            lines[i] = ("PUB " + subjects.get(i) + " " + (replyTo == null ? "" : replyTo + " "))
                    .getBytes(StandardCharsets.US_ASCII);
        }
        return new FrameBuffer(lines, new byte[0], this::write);
    }

    /**
     * Subscribes this receiving connection to {@code subject}; its messages reach the receiver
     * with {@code sid}. In place at the server once a later {@link #ping} returns.
     *
     * @param queueGroup the queue group sharing the subject's messages, or null for every message
     */
    public void subscribe(String subject, String queueGroup, long sid) throws IOException {
        if (receiver == null) {
            throw new IllegalStateException(name + " publishes only: it has no receiver for messages");
        }
        String sub = "SUB " + subject + (queueGroup == null ? "" : " " + queueGroup) + " " + sid + "\r\n";
        byte[] bytes = sub.getBytes(StandardCharsets.US_ASCII);
        write(bytes, 0, bytes.length);
    }

    /** Ends subscription {@code sid}: the server sends none of its messages after this reaches it. */
    public void unsubscribe(long sid) throws IOException {
        byte[] bytes = ("UNSUB " + sid + "\r\n").getBytes(StandardCharsets.US_ASCII);
        write(bytes, 0, bytes.length);
    }

    /** Writes bytes that no PONG from the reader may split. */
    void write(byte[] bytes, int offset, int length) throws IOException {
        synchronized (writeLock) {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                throw lost(e);
            }
            writes++;
        }
    }

    /** A failed write is the connection's failure, as a failed read is. */
    private IOException lost(IOException e) {
        IOException lost = new IOException("connection " + name + " lost: " + e.getMessage()
                + "; the direct client does not reconnect, --nats-client jnats rides through a restarted server", e);
        if (!closing) {
            failed(lost);
        }
        return lost;
    }

    /**
     * As {@link #ping}, but returns at once when nothing was written since the last PING and that
     * PING was answered: the streams sharing a connection each flush it, and only the first needs
     * a round trip.
     */
    public void pingIfWritten(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        synchronized (writeLock) {
            if (writes == writesPinged && pongsReceived >= pingsSent && !readerDone) {
                return;
            }
        }
        ping(timeout);
    }

    /** Sends a PING and waits for its PONG: the server then has everything written before. */
    public void ping(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        long target;
        synchronized (writeLock) {
            try {
                out.write(PING);
            } catch (IOException e) {
                throw lost(e);
            }
            target = ++pingsSent;
            writesPinged = writes;
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (pongsReceived < target && !readerDone && System.nanoTime() - start < PONG_YIELD_NANOS) {
            Thread.yield();
        }
        synchronized (pongLock) {
            while (pongsReceived < target) {
                long left = deadline - System.nanoTime();
                if (readerDone || left <= 0) {
                    failures.throwIfAny(name);
                    if (readerDone) {
                        throw new IOException(name + ": the connection closed before the server answered a PING");
                    }
                    throw new TimeoutException("NATS server did not answer a PING on " + name + " within "
                            + timeout.toSeconds() + " s");
                }
                pongLock.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private void failed(IOException failure) {
        failures.add(failure);
        if (receiver != null) {
            receiver.failed(failure);
        }
    }

    private void readUntilClosed() {
        ServerStream.Handler handler = new ServerStream.Handler() {
            @Override
            public void message(long sid, byte[] buffer, int offset, int length) {
                if (receiver != null) {
                    receiver.message(sid, buffer, offset, length);
                } else {
                    failed(new IOException("the NATS server sent a message to " + name + ", which subscribed to nothing"));
                }
            }

            @Override
            public void line(String line) throws IOException {
                answer(line);
            }
        };
        try {
            while (true) {
                stream.next(handler);
            }
        } catch (IOException e) {
            lost(e);
        } finally {
            readerDone = true;
            synchronized (pongLock) {
                pongLock.notifyAll();
            }
        }
    }

    private void answer(String line) throws IOException {
        if (line.equals("PING")) {
            synchronized (writeLock) {
                out.write(PONG);
            }
        } else if (line.equals("PONG")) {
            synchronized (pongLock) {
                pongsReceived++;
                pongLock.notifyAll();
            }
        } else if (line.startsWith("-ERR")) {
            failed(new IOException("NATS server error on " + name + ": " + line.substring(4).trim()));
        } else if (!line.equals("+OK") && !line.startsWith("INFO ")) {
            failed(new IOException("unexpected line from the NATS server on " + name + ": '" + abbreviate(line) + "'"));
        }
    }

    /** One protocol line without its CR LF. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int b;
            try {
                b = in.read();
            } catch (SocketTimeoutException e) {
                throw new IOException("the server sent no complete line in time", e);
            }
            if (b < 0) {
                throw new IOException("the server closed the connection");
            }
            if (b == '\n') {
                String s = line.toString(StandardCharsets.UTF_8);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            if (line.size() >= MAX_LINE_BYTES) {
                throw new IOException("a protocol line longer than " + MAX_LINE_BYTES + " bytes");
            }
            line.write(b);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    @Override
    public void close() throws IOException {
        closing = true;
        transport.close();
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
