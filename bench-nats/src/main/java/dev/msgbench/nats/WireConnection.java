package dev.msgbench.nats;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.UserError;

/**
 * A publish-only connection that speaks the NATS client protocol itself: INFO and CONNECT when
 * it opens, then PUB lines written by the caller, PING/PONG for flushes and the server's
 * keep-alive, -ERR recorded as a failure. It never subscribes, so the server sends it nothing
 * else. Plain TCP only; user/password or token come from the URL and are sent only in CONNECT.
 *
 * <p>IMPLEMENTATION NOTES: the producer writes from its own thread and a reader thread answers
 * the server's PINGs, so every socket write holds {@code writeLock}; the producer takes it once
 * per batch, not per message.
 */
final class WireConnection implements AutoCloseable {

    static final int DEFAULT_PORT = 4222;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] PING = "PING\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PONG = "PONG\r\n".getBytes(StandardCharsets.US_ASCII);
    /** INFO lines of large clusters list every server; anything longer is not NATS. */
    private static final int MAX_LINE_BYTES = 1 << 20;

    /** One server of the --url list. Credentials are never part of toString. */
    record Address(String host, int port, String user, String password, String token) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private final Object pongLock = new Object();
    private final String name;
    private final FirstFailure failures;
    private final long maxPayload;
    private final String serverVersion;
    private final Thread reader;
    private long pingsSent;      // guarded by writeLock
    /** Written under pongLock by the reader; volatile so that a flush can watch it without the lock. */
    private volatile long pongsReceived;
    /** How long a flush yields, watching for its PONG, before it waits on the lock: a wait wakes late on a VM. */
    private static final long PONG_YIELD_NANOS = 100_000;
    private volatile boolean closing;
    private volatile boolean readerDone;

    private WireConnection(Socket socket, InputStream in, String name, FirstFailure failures, long maxPayload,
                           String serverVersion) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = socket.getOutputStream();
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
     * @throws UserError when the list is malformed, no server answers, or the server refuses us
     */
    static WireConnection open(String url, int start, String name, Duration timeout, FirstFailure failures)
            throws IOException {
        List<Address> servers = parse(url);
        IOException last = null;
        for (int i = 0; i < servers.size(); i++) {
            Address a = servers.get((start + i) % servers.size());
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(a.host(), a.port()), (int) timeout.toMillis());
                socket.setSoTimeout((int) timeout.toMillis());
                WireConnection c = handshake(socket, a, name, failures);
                socket.setSoTimeout(0);
                c.reader.start();
                return c;
            } catch (IOException e) {
                socket.close();
                last = e;
            } catch (RuntimeException e) {
                socket.close();
                throw e;
            }
        }
        throw new UserError("--url: no NATS server answered at " + servers + " within " + timeout.toSeconds()
                + " s (" + (last == null ? "no address" : last.getMessage()) + ")");
    }

    /** Splits the --url list as jnats does: nats://[user:password@]host[:port] or host[:port], comma-separated. */
    static List<Address> parse(String url) {
        List<Address> servers = new ArrayList<>();
        for (String part : url.split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(s.contains("://") ? s : "nats://" + s);
            } catch (URISyntaxException e) {
                throw new UserError("--url: '" + redact(s) + "' is not a NATS server address (host:port or nats://host:port)");
            }
            if (!"nats".equalsIgnoreCase(uri.getScheme())) {
                throw new UserError("--url: '" + redact(s) + "': --nats-client direct speaks plain nats:// only; "
                        + "use --nats-client jnats for " + uri.getScheme() + "://");
            }
            if (uri.getHost() == null) {
                throw new UserError("--url: '" + redact(s) + "' names no host");
            }
            String user = null;
            String password = null;
            String token = null;
            String info = uri.getUserInfo();
            if (info != null) {
                int colon = info.indexOf(':');
                if (colon < 0) {
                    token = info;
                } else {
                    user = info.substring(0, colon);
                    password = info.substring(colon + 1);
                }
            }
            servers.add(new Address(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), user, password, token));
        }
        if (servers.isEmpty()) {
            throw new UserError("--url: '" + redact(url) + "' names no NATS server");
        }
        return servers;
    }

    /** An address as it may be printed: whatever stands before '@' is a secret. */
    private static String redact(String address) {
        int at = address.lastIndexOf('@');
        if (at < 0) {
            return address;
        }
        int scheme = address.indexOf("://");
        return (scheme >= 0 && scheme < at ? address.substring(0, scheme + 3) : "") + "***" + address.substring(at);
    }

    private static WireConnection handshake(Socket socket, Address a, String name, FirstFailure failures) throws IOException {
        InputStream in = new BufferedInputStream(socket.getInputStream());
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
        OutputStream out = socket.getOutputStream();
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
        return new WireConnection(socket, in, name, failures, info.path("max_payload").asLong(Long.MAX_VALUE),
                info.path("version").asText("unknown"));
    }

    long maxPayload() {
        return maxPayload;
    }

    String serverVersion() {
        return serverVersion;
    }

    /** Writes bytes that no PONG from the reader may split. */
    void write(byte[] bytes, int offset, int length) throws IOException {
        synchronized (writeLock) {
            out.write(bytes, offset, length);
        }
    }

    /** Sends a PING and waits for its PONG: the server then has everything written before. */
    void ping(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        long target;
        synchronized (writeLock) {
            out.write(PING);
            target = ++pingsSent;
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

    private void readUntilClosed() {
        try {
            while (true) {
                String line = readLine(in);
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
                    failures.add(new IOException("NATS server error on " + name + ": " + line.substring(4).trim()));
                } else if (!line.equals("+OK") && !line.startsWith("INFO ")) {
                    failures.add(new IOException("unexpected line from the NATS server on " + name + ": '"
                            + abbreviate(line) + "'"));
                }
            }
        } catch (IOException e) {
            if (!closing) {
                failures.add(new IOException("connection " + name + " lost: " + e.getMessage(), e));
            }
        } finally {
            readerDone = true;
            synchronized (pongLock) {
                pongLock.notifyAll();
            }
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
        socket.close();
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
