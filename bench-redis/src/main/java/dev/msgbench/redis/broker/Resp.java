package dev.msgbench.redis.broker;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.msgbench.core.broker.FreePorts;

/**
 * Just enough of the Redis protocol (RESP2) to check a starting server: one command, one reply
 * that is a simple string, an error or a bulk string.
 *
 * <p>IMPLEMENTATION NOTES: not lettuce, because a ready check polls a server that may not listen
 * yet, and a client with event loops and reconnects costs far more than the 20 ms redis-server
 * needs to start.
 */
public final class Resp {

    private static final int TIMEOUT_MILLIS = 1_000;

    private Resp() {
    }

    /**
     * Sends one command to 127.0.0.1:{@code port} and returns the reply.
     *
     * @throws IOException when the server does not answer, or answers with an error
     */
    static String call(int port, String... command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(FreePorts.LOOPBACK, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(encode(command));
            out.flush();
            return readReply(new BufferedInputStream(socket.getInputStream()));
        }
    }

    /** CONFIG GET of one setting: its value, or null when the server has no such setting. */
    static String configGet(int port, String key) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(FreePorts.LOOPBACK, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.getOutputStream().write(encode("CONFIG", "GET", key));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (in.read() != '*') {
                throw new IOException("CONFIG GET " + key + " did not answer with an array");
            }
            int count = Integer.parseInt(readLine(in));
            String value = null;
            for (int i = 0; i < count; i++) {
                String element = readReply(in);
                if (i == 1) {
                    value = element;
                }
            }
            return value;
        }
    }

    /** The value of {@code field} in the text INFO returns, or null. */
    static String infoField(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        return null;
    }

    /** One command as RESP2 writes it: an array of bulk strings. */
    public static byte[] encode(String... command) {
        StringBuilder b = new StringBuilder("*").append(command.length).append("\r\n");
        for (String arg : command) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            b.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String readReply(InputStream in) throws IOException {
        int type = in.read();
        String line = readLine(in);
        switch (type) {
            case '+':
            case ':':
                return line;
            case '-':
                throw new IOException("redis answered: " + line);
            case '$':
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length + 2);
                if (data.length < length + 2) {
                    throw new EOFException("redis closed the connection in the middle of a reply");
                }
                return new String(data, 0, length, StandardCharsets.UTF_8);
            case -1:
                throw new EOFException("redis closed the connection without a reply");
            default:
                throw new IOException("unexpected redis reply type '" + (char) type + "'");
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\r') {
            if (c == -1) {
                throw new EOFException("redis closed the connection in the middle of a reply");
            }
            line.write(c);
        }
        if (in.read() != '\n') {
            throw new IOException("malformed redis reply: CR without LF");
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
