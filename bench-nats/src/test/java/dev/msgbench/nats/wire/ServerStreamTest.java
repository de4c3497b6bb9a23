package dev.msgbench.nats.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.testing.BytePipe;
import dev.msgbench.core.testing.Cuts;

/** The server's side of the NATS protocol, cut by reads wherever TCP may cut it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerStreamTest {

    private static final String SERVER = "INFO {\"server_id\":\"N\"}\r\n"
            + "MSG s.1 7 5\r\nhello\r\n"
            + "PING\r\n"
            + "MSG s.2 12 r.2 0\r\n\r\n"
            + "+OK\r\n"
            + "MSG s.1 7 11\r\nwith\r\ncr lf\r\n"
            + "-ERR 'Slow Consumer'\r\n";
    private static final List<String> EVENTS = List.of("line INFO {\"server_id\":\"N\"}", "msg 7 hello", "line PING",
            "msg 12 ", "line +OK", "msg 7 with\r\ncr lf", "line -ERR 'Slow Consumer'");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Every operation until the stream ends, as text. */
    private static List<String> read(ServerStream stream, int operations) throws IOException {
        List<String> events = new ArrayList<>();
        ServerStream.Handler handler = new ServerStream.Handler() {
            @Override
            public void message(long sid, byte[] buffer, int offset, int length) {
                events.add("msg " + sid + " " + new String(buffer, offset, length, StandardCharsets.US_ASCII));
            }

            @Override
            public void line(String line) {
                events.add("line " + line);
            }
        };
        for (int i = 0; i < operations; i++) {
            stream.next(handler);
        }
        return events;
    }

    @Test
    void everyOperationIsReadWhereverTheStreamIsCut() throws IOException {
        byte[] bytes = ascii(SERVER);
        for (int[] cuts : Cuts.every(bytes.length)) {
            BytePipe pipe = new BytePipe();
            pipe.write(bytes, cuts);
            // a small buffer makes every cut also a compaction, and the last payload a growth
            assertEquals(EVENTS, read(new ServerStream(pipe.in(), 8), EVENTS.size()), Arrays.toString(cuts));
        }
    }

    @Test
    void aPayloadLargerThanTheBufferArrivesWhole() throws IOException {
        byte[] payload = new byte[300_000];
        Arrays.fill(payload, (byte) 'x');
        BytePipe pipe = new BytePipe();
        pipe.write(ascii("MSG big 1 300000\r\n"));
        pipe.write(payload, 1000, 70_000, 200_000);
        pipe.write(ascii("\r\nPONG\r\n"));
        List<String> events = read(new ServerStream(pipe.in(), 1024), 2);

        assertEquals("msg 1 " + "x".repeat(300_000), events.get(0));
        assertEquals("line PONG", events.get(1));
    }

    @Test
    void theEndOfTheStreamMidMessageIsALostConnection() {
        BytePipe pipe = new BytePipe();
        pipe.write(ascii("MSG s 1 10\r\nhal"));
        pipe.end();
        IOException e = assertThrows(IOException.class, () -> read(new ServerStream(pipe.in()), 1));
        assertEquals("the server closed the connection", e.getMessage());
    }

    @Test
    void aPayloadNotEndedByCrLfIsAProtocolError() {
        BytePipe pipe = new BytePipe();
        pipe.write(ascii("MSG s 1 3\r\nabcdPING\r\n"));
        IOException e = assertThrows(IOException.class, () -> read(new ServerStream(pipe.in()), 1));
        assertEquals("a message of 3 bytes was not followed by CR LF: 'MSG s 1 3'", e.getMessage());
    }

    @Test
    void malformedMessageLinesAreProtocolErrors() {
        for (String line : List.of("MSG s 1 x", "MSG s x 3", "MSG s 3", "MSG  1 3", "MSG s 1 -3")) {
            BytePipe pipe = new BytePipe();
            pipe.write(ascii(line + "\r\nabc\r\n"));
            IOException e = assertThrows(IOException.class, () -> read(new ServerStream(pipe.in()), 1), line);
            assertEquals("a malformed MSG line from the server: '" + line + "'", e.getMessage());
        }
    }

    @Test
    void aMessageWithHeadersIsRefusedSinceNoSubscriptionAskedForOne() {
        BytePipe pipe = new BytePipe();
        pipe.write(ascii("HMSG s 1 12 15\r\nNATS/1.0\r\n\r\nabc\r\n"));
        IOException e = assertThrows(IOException.class, () -> read(new ServerStream(pipe.in()), 1));
        assertEquals("the server sent a message with headers (HMSG), which no subscription of ours asked for: "
                + "'HMSG s 1 12 15'", e.getMessage());
    }

    @Test
    void aSizeNoServerSendsIsRefusedBeforeAnyBufferGrows() {
        BytePipe pipe = new BytePipe();
        pipe.write(ascii("MSG s 1 999999999\r\n"));
        IOException e = assertThrows(IOException.class, () -> read(new ServerStream(pipe.in()), 1));
        assertEquals("a message of 999999999 bytes is more than any NATS server sends: 'MSG s 1 999999999'", e.getMessage());
    }
}
