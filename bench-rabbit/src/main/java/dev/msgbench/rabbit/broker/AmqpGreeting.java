package dev.msgbench.rabbit.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLSocketFactory;

/**
 * The cheapest sign that a node serves AMQP: after the 8-byte protocol header, the server's first
 * frame (connection.start, a method frame) arrives. A bare port check is not enough: the node opens
 * its listener late in its boot, but other code may hold the port earlier.
 */
final class AmqpGreeting {

    /** "AMQP" 0 0 9 1: protocol 0-9-1. */
    private static final byte[] PROTOCOL_HEADER = {'A', 'M', 'Q', 'P', 0, 0, 9, 1};
    private static final int FRAME_METHOD = 1;
    private static final int TIMEOUT_MILLIS = 2_000;

    private AmqpGreeting() {
    }

    /**
     * True when a method frame answers the protocol header on {@code port} of {@code host}.
     *
     * @param tls for a node that speaks AMQP over TLS only: the TLS handshake first; null for plain
     */
    static boolean answers(String host, int port, SSLSocketFactory tls) throws IOException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            plain.setSoTimeout(TIMEOUT_MILLIS);
            try (Socket socket = tls == null ? plain : tls.createSocket(plain, host, port, true)) {
                return greets(socket, port);
            }
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    private static boolean greets(Socket socket, int port) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(PROTOCOL_HEADER);
        out.flush();
        InputStream in = socket.getInputStream();
        int type = in.read();
        if (type == FRAME_METHOD) {
            return true;
        }
        if (type == -1) {
            return false;
        }
        throw new IOException("port " + port + " answered the AMQP header with frame type " + type
                + ", not a method frame: is it a RabbitMQ node? ("
                + new String(new byte[] {(byte) type}, StandardCharsets.ISO_8859_1) + "...)");
    }
}
