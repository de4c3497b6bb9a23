package dev.msgbench.rabbit.broker;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The handshake's first request of RabbitMQ's stream protocol, peer-properties, which a node
 * answers before any login with its own properties (product, version): the cheapest sign that it
 * serves the protocol (as with {@link AmqpGreeting}, an open port alone is not enough), and where
 * a broker given with --url tells its version, which the stream client does not expose.
 */
public final class StreamGreeting {

    private static final short PEER_PROPERTIES = 0x0011;
    /** A response's key is its request's with the high bit set. */
    private static final short PEER_PROPERTIES_RESPONSE = (short) 0x8011;
    private static final short VERSION = 1;
    private static final short RESPONSE_OK = 1;
    private static final int TIMEOUT_MILLIS = 2_000;
    /** Far above a real answer (a few hundred bytes): a larger size is not this protocol. */
    private static final int MAX_RESPONSE_BYTES = 1 << 16;

    private StreamGreeting() {
    }

    /** True when a peer-properties response answers the request on {@code port} of {@code host}. */
    static boolean answers(String host, int port) throws IOException {
        try {
            serverProperties(host, port);
            return true;
        } catch (SocketTimeoutException | EOFException e) {
            return false;
        }
    }

    /**
     * The server's peer properties, e.g. version=3.10.8.
     *
     * @throws IOException when nothing answers, or something that is not a stream listener
     */
    public static Map<String, String> serverProperties(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            // size, key, version, correlation id, and an empty map of the client's properties, in one write:
            // RabbitMQ 3.10 closes a connection whose first frame comes in pieces ("Invalid transition from
            // tcp_connected to tcp_connected")
            ByteBuffer request = ByteBuffer.allocate(4 + 12).putInt(12).putShort(PEER_PROPERTIES).putShort(VERSION)
                    .putInt(1).putInt(0);
            socket.getOutputStream().write(request.array());
            socket.getOutputStream().flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int size = in.readInt();
            short key = in.readShort();
            if (key != PEER_PROPERTIES_RESPONSE || size < 12 || size > MAX_RESPONSE_BYTES) {
                throw new IOException("port " + port + " of " + host + " answered the stream protocol's "
                        + "peer-properties request with key 0x" + Integer.toHexString(key & 0xffff) + " and size "
                        + size + ": is it a RabbitMQ stream listener?");
            }
            in.readShort();
            in.readInt();
            short code = in.readShort();
            if (code != RESPONSE_OK) {
                throw new IOException("port " + port + " of " + host + " refused peer-properties with code " + code);
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                properties.put(string(in), string(in));
            }
            return properties;
        }
    }

    private static String string(DataInputStream in) throws IOException {
        short length = in.readShort();
        if (length < 0) {
            return "";
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException();
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
