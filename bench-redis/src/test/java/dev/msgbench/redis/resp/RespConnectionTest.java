package dev.msgbench.redis.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.UserError;
import dev.msgbench.core.testing.Cuts;
import dev.msgbench.core.testing.FakeSocket;

/** The handshake of a direct RESP connection, against a fake socket whose replies are cut anywhere. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RespConnectionTest {

    private static final String AUTH = "*3\r\n$4\r\nAUTH\r\n$5\r\nalice\r\n$6\r\ns3cret\r\n";
    private static final String SETNAME = "*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$3\r\np-0\r\n";

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String written(InputStream in, int length) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (read.size() < length) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            read.write(b);
        }
        return read.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void theHandshakeAuthenticatesAndNamesTheConnectionWhereverTheRepliesAreCut() throws Exception {
        byte[] replies = ascii("+OK\r\n+OK\r\n");
        for (int[] cuts : Cuts.every(replies.length)) {
            try (FakeSocket socket = new FakeSocket()) {
                socket.toClient().write(replies, cuts);
                RespConnection c = new RespConnection("p-0", socket.clientIn(), socket.clientOut(), socket);

                c.handshake("h:6379", "alice", "s3cret");

                assertEquals(AUTH + SETNAME, written(socket.serverIn(), AUTH.length() + SETNAME.length()));
            }
        }
    }

    @Test
    void aRefusedPasswordIsOneLineWithTheServersReasonAndNoSecret() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii("-WRONGPASS invalid username-password pair or user is disabled.\r\n"), 3);
            RespConnection c = new RespConnection("p-0", socket.clientIn(), socket.clientOut(), socket);

            UserError e = assertThrows(UserError.class, () -> c.handshake("h:6379", "alice", "s3cret"));
            assertEquals("--url: the Redis server at h:6379 refused the password: WRONGPASS invalid "
                    + "username-password pair or user is disabled.", e.getMessage());
            assertFalse(e.getMessage().contains("s3cret"));
        }
    }

    @Test
    void aServerThatWantsAPasswordNoneWasGivenForSaysSoInOneLine() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii("-NOAUTH Authentication required.\r\n"), 1);
            RespConnection c = new RespConnection("p-0", socket.clientIn(), socket.clientOut(), socket);

            UserError e = assertThrows(UserError.class, () -> c.handshake("h:6379", null, null));
            assertEquals("the Redis server at h:6379 refused CLIENT SETNAME: NOAUTH Authentication required.",
                    e.getMessage());
        }
    }

    @Test
    void aReplyOfAnotherTypeToTheHandshakeNamesWhatCame() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii("*1\r\n:1\r\n"));
            RespConnection c = new RespConnection("p-0", socket.clientIn(), socket.clientOut(), socket);

            IOException e = assertThrows(IOException.class, () -> c.handshake("h:6379", null, null));
            assertEquals("p-0: CLIENT answered with an array of 1 elements, not a simple string", e.getMessage());
        }
    }
}
