package dev.msgbench.rabbit.broker;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The cheapest sign that a node serves the stream protocol: its answer to the handshake's first
 * request, peer-properties. As with {@link AmqpGreeting}, an open port alone is not enough.
 */
final class StreamGreeting {

    private static final short PEER_PROPERTIES = 0x0011;
    /** A response's key is its request's with the high bit set. */
    private static final short PEER_PROPERTIES_RESPONSE = (short) 0x8011;
    private static final short VERSION = 1;
    private static final int TIMEOUT_MILLIS = 2_000;

    private StreamGreeting() {
    }

    /** True when a peer-properties response answers the request on {@code port} of {@code host}. */
    static boolean answers(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            // size, key, version, correlation id, and an empty map of the client's properties
            out.writeInt(2 + 2 + 4 + 4);
            out.writeShort(PEER_PROPERTIES);
            out.writeShort(VERSION);
            out.writeInt(1);
            out.writeInt(0);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readInt();
            short key = in.readShort();
            if (key != PEER_PROPERTIES_RESPONSE) {
                throw new IOException("port " + port + " answered the stream protocol's peer-properties request "
                        + "with key 0x" + Integer.toHexString(key & 0xffff) + ": is it a RabbitMQ stream listener?");
            }
            return true;
        } catch (SocketTimeoutException | EOFException e) {
            return false;
        }
    }
}
