package dev.msgbench.core.broker;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Whether an MQTT broker accepts a session: one CONNECT (MQTT 3.1.1, clean session, no login)
 * answered by a CONNACK that accepts it, then DISCONNECT. A listening port alone is not enough:
 * the probe proves the broker parses MQTT and takes anonymous clients, as a run's will. Shared by
 * every launcher with an MQTT listener (Mosquitto, RabbitMQ's MQTT plugin, nats-server's).
 */
public final class MqttProbe {

    private static final int TIMEOUT_MILLIS = 2000;
    private static final byte[] CLIENT_ID = "msgbench-probe".getBytes(StandardCharsets.US_ASCII);

    private MqttProbe() {
    }

    public static boolean accepts(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(connect());
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
        int remaining = 10 + 2 + CLIENT_ID.length;
        byte[] packet = new byte[2 + remaining];
        byte[] head = {0x10, (byte) remaining, 0, 4, 'M', 'Q', 'T', 'T', 4, 0x02, 0, 60, 0, (byte) CLIENT_ID.length};
        System.arraycopy(head, 0, packet, 0, head.length);
        System.arraycopy(CLIENT_ID, 0, packet, head.length, CLIENT_ID.length);
        return packet;
    }
}
