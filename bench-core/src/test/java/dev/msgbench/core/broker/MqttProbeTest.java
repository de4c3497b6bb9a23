package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The probe's CONNECT packet, byte for byte as MQTT 3.1.1 lays it out. */
class MqttProbeTest {

    private static final byte[] HEAD = {0, 4, 'M', 'Q', 'T', 'T', 4};
    private static final byte[] KEEP_ALIVE_AND_ID = {0, 60, 0, 14, 'm', 's', 'g', 'b', 'e', 'n', 'c', 'h', '-', 'p',
            'r', 'o', 'b', 'e'};

    @Test
    void anAnonymousConnectAsksForACleanSessionOnly() {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(new byte[] {0x10, 26});
        expected.writeBytes(HEAD);
        expected.write(0x02);
        expected.writeBytes(KEEP_ALIVE_AND_ID);

        assertArrayEquals(expected.toByteArray(), MqttProbe.connect());
    }

    @Test
    void aLoginSetsTheUserAndPasswordFlagsAndFollowsTheClientId() {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(new byte[] {0x10, 26 + 2 + 2 + 2 + 3});
        expected.writeBytes(HEAD);
        expected.write(0xC2);
        expected.writeBytes(KEEP_ALIVE_AND_ID);
        expected.writeBytes(new byte[] {0, 2, 'm', 'b', 0, 3, 'p', 'w', 'd'});

        assertArrayEquals(expected.toByteArray(), MqttProbe.connect("mb", "pwd"));
    }

    @Test
    void aLongLoginTakesTwoBytesOfRemainingLength() {
        String password = "p".repeat(200);
        byte[] packet = MqttProbe.connect("u", password);
        int remaining = 26 + 2 + 1 + 2 + 200;

        assertArrayEquals(new byte[] {0x10, (byte) (remaining % 128 | 0x80), (byte) (remaining / 128)},
                java.util.Arrays.copyOf(packet, 3));
        assertArrayEquals(password.getBytes(StandardCharsets.UTF_8),
                java.util.Arrays.copyOfRange(packet, packet.length - 200, packet.length));
    }
}
