package dev.msgbench.core.broker;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.msgbench.core.security.ClientSecurity;

/**
 * Whether an MQTT broker accepts a session: one CONNECT (MQTT 3.1.1, clean session) answered by
 * a CONNACK that accepts it, then DISCONNECT. A listening port alone is not enough: the probe
 * proves the broker parses MQTT and takes the run's clients as they will come, anonymous to an
 * open broker, over TLS with the login to a secured one. Shared by every launcher with an MQTT
 * listener (Mosquitto, RabbitMQ's MQTT plugin, nats-server's).
 */
public final class MqttProbe {

    private static final int TIMEOUT_MILLIS = 2000;
    private static final byte[] CLIENT_ID = "msgbench-probe".getBytes(StandardCharsets.US_ASCII);

    private MqttProbe() {
    }

    public static boolean accepts(String host, int port) throws IOException {
        return accepts(host, port, ClientSecurity.NONE);
    }

    /** @param security TLS (its CA, and a client certificate for mutual TLS) and the login, or NONE */
    public static boolean accepts(String host, int port, ClientSecurity security) throws IOException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            plain.setSoTimeout(TIMEOUT_MILLIS);
            Socket socket = security.usesTls()
                    ? security.tls().sslContext().getSocketFactory().createSocket(plain, host, port, true) : plain;
            OutputStream out = socket.getOutputStream();
            out.write(connect(security.user(), security.password() == null ? null : security.password().reveal()));
            out.flush();
            byte[] connack = new byte[4];
            new DataInputStream(socket.getInputStream()).readFully(connack);
            // CONNACK, remaining length 2, no session present, return code 0 (accepted)
            boolean accepted = connack[0] == 0x20 && connack[1] == 2 && connack[3] == 0;
            out.write(new byte[] {(byte) 0xE0, 0});
            return accepted;
        }
    }

    /** CONNECT: protocol "MQTT" level 4 (3.1.1), clean session, keep-alive 60 s, the client id. */
    static byte[] connect() {
        return connect(null, null);
    }

    /**
     * CONNECT with a user name and password when given (flags 0x80 and 0x40), each a length-prefixed
     * UTF-8 string after the client id; the remaining length in MQTT's variable-length encoding.
     */
    static byte[] connect(String user, String password) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int flags = 0x02 | (user != null ? 0x80 : 0) | (password != null ? 0x40 : 0);
        body.writeBytes(new byte[] {0, 4, 'M', 'Q', 'T', 'T', 4, (byte) flags, 0, 60});
        string(body, CLIENT_ID);
        if (user != null) {
            string(body, user.getBytes(StandardCharsets.UTF_8));
        }
        if (password != null) {
            string(body, password.getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream packet = new ByteArrayOutputStream();
        packet.write(0x10);
        int remaining = body.size();
        do {
            int digit = remaining % 128;
            remaining /= 128;
            packet.write(remaining > 0 ? digit | 0x80 : digit);
        } while (remaining > 0);
        packet.writeBytes(body.toByteArray());
        return packet.toByteArray();
    }

    private static void string(ByteArrayOutputStream out, byte[] bytes) {
        out.write(bytes.length >> 8);
        out.write(bytes.length & 0xFF);
        out.writeBytes(bytes);
    }
}
