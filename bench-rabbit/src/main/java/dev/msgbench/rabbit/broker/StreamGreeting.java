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
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

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

    /**
     * True when a peer-properties response answers the request on {@code port} of {@code host}.
     *
     * @param tls for a node whose stream listener speaks TLS only: the TLS handshake first; null for plain
     */
    static boolean answers(String host, int port, SSLSocketFactory tls) throws IOException {
        try {
            serverProperties(host, port, tls);
            return true;
        } catch (SocketTimeoutException | EOFException e) {
            return false;
        }
    }

    /**
     * The server's peer properties, e.g. version=3.10.8.
     *
     * @param tls a TLS listener's: its certificate must be trusted and name {@code host}; null for plain
     * @throws IOException when nothing answers, or something that is not a stream listener, or
     *                     {@link javax.net.ssl.SSLException} when the TLS handshake fails
     */
    public static Map<String, String> serverProperties(String host, int port, SSLSocketFactory tls)
            throws IOException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            plain.setSoTimeout(TIMEOUT_MILLIS);
            try (Socket socket = tls == null ? plain : verifyingHostname(tls.createSocket(plain, host, port, true))) {
                return exchange(socket, host, port);
            }
        }
    }

    /** As stream-client checks a certificate: it must name the host asked for. */
    private static Socket verifyingHostname(Socket socket) {
        SSLSocket tls = (SSLSocket) socket;
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(parameters);
        return tls;
    }

    private static Map<String, String> exchange(Socket socket, String host, int port) throws IOException {
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
