package dev.msgbench.redis.resp;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.security.Secret;

/**
 * The Redis protocol (RESP2) as every part of the suite writes it, and a one-shot client for the
 * checks of a starting server: one command, one reply, on a socket of its own.
 *
 * <p>IMPLEMENTATION NOTES: the one-shot client is not lettuce, because a ready check polls a
 * server that may not listen yet, and a client with event loops and reconnects costs far more
 * than the 20 ms redis-server needs to start.
 */
public final class Resp {

    private static final int TIMEOUT_MILLIS = 1_000;
    private static final byte[] CRLF = {'\r', '\n'};

    private Resp() {
    }

    /**
     * A server as the one-shot client reaches it: over TLS when {@code tls} is set, logging in
     * (AUTH) first when {@code password} is.
     *
     * @param user null for the default user
     * @param host its address: 127.0.0.1, or a host's address under --isolate
     */
    public record Endpoint(int port, SSLContext tls, String user, Secret password, String host) {

        /** On 127.0.0.1. */
        public Endpoint(int port, SSLContext tls, String user, Secret password) {
            this(port, tls, user, password, FreePorts.LOOPBACK.getHostAddress());
        }

        public Endpoint withHost(String address) {
            return new Endpoint(port, tls, user, password, address);
        }

        /** Plaintext, no login. */
        public static Endpoint plain(int port) {
            return new Endpoint(port, null, null, null);
        }
    }

    /** One command as RESP2 writes it: an array of bulk strings. */
    public static byte[] encode(String... command) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(ascii("*" + command.length + "\r\n"));
        for (String arg : command) {
            writeBulk(b, arg.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    /**
     * The start of a command whose last argument follows: the array of {@code arguments} and one
     * more bulk string, up to that string's length, e.g. {@code *3 $7 PUBLISH $2 ch $}. A
     * {@link dev.msgbench.core.wire.FrameBuffer} completes it with each message.
     */
    public static byte[] commandPrefix(byte[]... arguments) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(ascii("*" + (arguments.length + 1) + "\r\n"));
        for (byte[] arg : arguments) {
            writeBulk(b, arg);
        }
        b.write('$');
        return b.toByteArray();
    }

    private static void writeBulk(ByteArrayOutputStream b, byte[] arg) {
        b.writeBytes(ascii("$" + arg.length + "\r\n"));
        b.writeBytes(arg);
        b.writeBytes(CRLF);
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends one command to 127.0.0.1:{@code port} and returns the reply as text: a simple or bulk
     * string, an integer's digits, or null for a nil.
     *
     * @throws IOException when the server does not answer, answers with an error or with an array
     */
    public static String call(int port, String... command) throws IOException {
        return call(Endpoint.plain(port), command);
    }

    /** {@link #call(int, String...)} on a server that may want TLS and a login. */
    public static String call(Endpoint endpoint, String... command) throws IOException {
        Object reply = exchange(endpoint, command);
        if (reply instanceof List) {
            throw new ProtocolException(command[0] + " answered with " + describe(reply) + ", not a single value");
        }
        return text(reply);
    }

    /** CONFIG GET of one setting: its value, or null when the server has no such setting. */
    public static String configGet(int port, String key) throws IOException {
        return configGet(Endpoint.plain(port), key);
    }

    /** {@link #configGet(int, String)} on a server that may want TLS and a login. */
    public static String configGet(Endpoint endpoint, String key) throws IOException {
        Object reply = exchange(endpoint, "CONFIG", "GET", key);
        if (!(reply instanceof List)) {
            throw new ProtocolException("CONFIG GET " + key + " answered with " + describe(reply) + ", not an array");
        }
        List<?> pair = (List<?>) reply;
        return pair.size() < 2 ? null : text(pair.get(1));
    }

    private static Object exchange(Endpoint endpoint, String... command) throws IOException {
        String where = endpoint.host() + ":" + endpoint.port();
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), TIMEOUT_MILLIS);
            plain.setSoTimeout(TIMEOUT_MILLIS);
            Socket socket = plain;
            if (endpoint.tls() != null) {
                SSLSocket tls = (SSLSocket) endpoint.tls().getSocketFactory()
                        .createSocket(plain, endpoint.host(), endpoint.port(), true);
                tls.startHandshake();
                socket = tls;
            }
            OutputStream out = socket.getOutputStream();
            RespReader reader = new RespReader(new BufferedInputStream(socket.getInputStream()), where);
            if (endpoint.password() != null) {
                Object auth = send(out, reader, endpoint.user() == null
                        ? new String[] {"AUTH", endpoint.password().reveal()}
                        : new String[] {"AUTH", endpoint.user(), endpoint.password().reveal()});
                if (auth instanceof RespError) {
                    // the server's words (WRONGPASS ...) hold no secret
                    throw new IOException("redis refused the login: " + ((RespError) auth).message());
                }
            }
            Object reply = send(out, reader, command);
            if (reply instanceof RespError) {
                throw new IOException("redis answered: " + ((RespError) reply).message());
            }
            return reply;
        }
    }

    private static Object send(OutputStream out, RespReader reader, String... command) throws IOException {
        out.write(encode(command));
        out.flush();
        return reader.readValue();
    }

    private static String text(Object value) {
        if (value instanceof byte[]) {
            return new String((byte[]) value, StandardCharsets.UTF_8);
        }
        return value == null ? null : value.toString();
    }

    /** The value of {@code field} in the text INFO returns, or null. */
    public static String infoField(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        return null;
    }

    /** A reply as {@link RespReader#readValue()} returns it, in words for an error message. */
    public static String describe(Object value) {
        if (value == null) {
            return "a nil";
        } else if (value instanceof String) {
            return "a simple string '" + abbreviate((String) value) + "'";
        } else if (value instanceof RespError) {
            return "an error '" + abbreviate(((RespError) value).message()) + "'";
        } else if (value instanceof Long) {
            return "an integer " + value;
        } else if (value instanceof byte[]) {
            return "a bulk string of " + ((byte[]) value).length + " bytes";
        } else if (value instanceof List) {
            return "an array of " + ((List<?>) value).size() + " elements";
        }
        throw new IllegalArgumentException("not a RESP value: " + value.getClass().getName());
    }

    static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    /** A byte as an error message may show it: 'x', or its code when it is no printable ASCII. */
    static String printable(int b) {
        return b >= 0x20 && b < 0x7f ? "'" + (char) b + "'" : "byte " + b;
    }
}
