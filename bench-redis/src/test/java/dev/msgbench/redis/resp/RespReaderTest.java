package dev.msgbench.redis.resp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.testing.BytePipe;
import dev.msgbench.core.testing.Cuts;

/**
 * RESP2 as a server sends it, cut into reads at every byte boundary and a byte at a time, through
 * a buffer small enough (16 bytes) that replies straddle its end and bulk strings outgrow it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RespReaderTest {

    private static final int SMALL_BUFFER = 16;
    private static final String LARGE = "x".repeat(40);

    /** Every RESP2 type, errors as Redis words them, and what the handler must hear of each. */
    private static final String[][] REPLIES = {
            {"+OK\r\n", "simple OK"},
            {"-ERR unknown command 'FOO', with args beginning with: \r\n",
                    "error ERR unknown command 'FOO', with args beginning with: "},
            {"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
                    "error WRONGTYPE Operation against a key holding the wrong kind of value"},
            {"-NOAUTH Authentication required.\r\n", "error NOAUTH Authentication required."},
            {"-NOPERM this user has no permissions to run the 'publish' command\r\n",
                    "error NOPERM this user has no permissions to run the 'publish' command"},
            {"-OOM command not allowed when used memory > 'maxmemory'.\r\n",
                    "error OOM command not allowed when used memory > 'maxmemory'."},
            {":0\r\n", "integer 0"},
            {":-12\r\n", "integer -12"},
            {":9223372036854775807\r\n", "integer 9223372036854775807"},
            {"$15\r\n1700000000000-0\r\n", "bulk '1700000000000-0'"},
            {"$0\r\n\r\n", "bulk ''"},
            {"$12\r\n$3\r\n*1\r\n:2\r\n\r\n", "bulk '$3\r\n*1\r\n:2\r\n'"},
            {"$40\r\n" + LARGE + "\r\n", "bulk '" + LARGE + "'"},
            {"$-1\r\n", "nil"},
            {"*-1\r\n", "nil"},
            {"*0\r\n", "array []"},
            {"*4\r\n:1\r\n$2\r\nhi\r\n*3\r\n+OK\r\n-ERR x\r\n$-1\r\n*-1\r\n", "array [1, 'hi', [+OK, -ERR x, nil], nil]"},
    };

    /** Writes down each reply as the handler hears it. */
    private static final class Heard implements ReplyHandler {
        final List<String> replies = new ArrayList<>();

        @Override
        public void integer(long value) {
            replies.add("integer " + value);
        }

        @Override
        public void bulk(byte[] data, int offset, int length) {
            replies.add("bulk '" + new String(data, offset, length, StandardCharsets.ISO_8859_1) + "'");
        }

        @Override
        public void error(String message) {
            replies.add("error " + message);
        }

        @Override
        public void simple(String value) {
            replies.add("simple " + value);
        }

        @Override
        public void nil() {
            replies.add("nil");
        }

        @Override
        public void array(List<Object> elements) {
            replies.add("array " + render(elements));
        }

        @Override
        public void ended(IOException cause) {
            throw new AssertionError("the reader loop is the connection's, not this test's");
        }
    }

    private static String render(Object value) {
        if (value == null) {
            return "nil";
        } else if (value instanceof byte[]) {
            return "'" + new String((byte[]) value, StandardCharsets.ISO_8859_1) + "'";
        } else if (value instanceof String) {
            return "+" + value;
        } else if (value instanceof RespError) {
            return "-" + ((RespError) value).message();
        } else if (value instanceof List) {
            List<String> elements = new ArrayList<>();
            for (Object element : (List<?>) value) {
                elements.add(render(element));
            }
            return elements.toString();
        }
        return value.toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static RespReader reader(byte[] stream, int... cuts) {
        BytePipe pipe = new BytePipe();
        pipe.write(stream, cuts);
        pipe.end();
        return new RespReader(pipe.in(), "r-0", SMALL_BUFFER);
    }

    @Test
    void everyReplyTypeIsReadTheSameWhereverTheStreamIsCut() throws Exception {
        StringBuilder stream = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (String[] reply : REPLIES) {
            stream.append(reply[0]);
            expected.add(reply[1]);
        }
        byte[] all = bytes(stream.toString());
        for (int[] cuts : Cuts.every(all.length)) {
            RespReader reader = reader(all, cuts);
            Heard heard = new Heard();
            for (int i = 0; i < REPLIES.length; i++) {
                reader.readReply(heard);
            }

            assertEquals(expected, heard.replies, "cut at " + cuts[0] + (cuts.length > 1 ? " and on" : ""));
            IOException end = assertThrows(IOException.class, () -> reader.readReply(heard));
            assertEquals("the Redis server closed r-0", end.getMessage());
        }
    }

    @Test
    void eachReplyCutAtEveryBoundaryAloneIsReadWithTheDefaultBufferToo() throws Exception {
        for (String[] reply : REPLIES) {
            for (int[] cuts : Cuts.every(reply[0].length())) {
                BytePipe pipe = new BytePipe();
                pipe.write(bytes(reply[0]), cuts);
                Heard heard = new Heard();
                new RespReader(pipe.in(), "r-0").readReply(heard);

                assertEquals(List.of(reply[1]), heard.replies);
            }
        }
    }

    @Test
    void valuesAreReadAsTheOneShotClientWantsThem() throws Exception {
        byte[] stream = bytes("+PONG\r\n:7\r\n$3\r\nabc\r\n$-1\r\n*2\r\n$6\r\nmaxlen\r\n$1\r\n0\r\n-ERR no\r\n");
        RespReader reader = reader(stream, Cuts.singleBytes(stream.length));

        assertEquals("PONG", reader.readValue());
        assertEquals(7L, reader.readValue());
        assertArrayEquals(bytes("abc"), (byte[]) reader.readValue());
        assertNull(reader.readValue());
        assertEquals("['maxlen', '0']", render(reader.readValue()));
        assertEquals(new RespError("ERR no"), reader.readValue());
    }

    @Test
    void whatIsNotRespTwoEndsTheConnectionNamingWhatCame() {
        String[][] malformed = {
                {"%1\r\n+a\r\n+b\r\n", "a reply of unknown type '%' on r-0 (RESP2 has + - : $ *)"},
                {"\u0001\r\n", "a reply of unknown type byte 1 on r-0 (RESP2 has + - : $ *)"},
                {":12x\r\n", "a malformed integer on r-0"},
                {":12\rx", "expected byte 10 but got 'x' on r-0"},
                {"$3\r\nabcd\r\n", "a bulk string of 3 bytes not followed by CR LF on r-0"},
                {"$3000000000\r\n", "a bulk string of 3000000000 bytes on r-0"},
                {"$40\r\n" + LARGE + "!\r\n", "expected byte 13 but got '!' on r-0"},
        };
        for (String[] m : malformed) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> reader(bytes(m[0])).readReply(new Heard()));
            assertEquals(m[1], e.getMessage());
        }
    }

    @Test
    void aStreamThatEndsInsideAReplyIsTheServerClosingTheConnection() {
        String reply = "*2\r\n$5\r\nhello\r\n:1\r\n";
        for (int end = 0; end < reply.length(); end++) {
            RespReader reader = reader(bytes(reply.substring(0, end)), Cuts.singleBytes(end));
            IOException e = assertThrows(IOException.class, () -> reader.readReply(new Heard()));
            assertEquals("the Redis server closed r-0", e.getMessage());
        }
    }

    /** Writes down each push as the handler hears it. */
    private static final class Pushes implements PushHandler {
        final List<String> heard = new ArrayList<>();

        @Override
        public void message(byte[] data, int offset, int length) {
            heard.add("message " + new String(data, offset, length, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void subscribed() {
            heard.add("subscribed");
        }

        @Override
        public void ended(IOException cause) {
            throw new AssertionError("the reader loop is the connection's, not this test's");
        }
    }

    @Test
    void confirmationsAndMessagesArePushedTheSameWhereverTheStreamIsCut() throws Exception {
        String stream = "*3\r\n$9\r\nsubscribe\r\n$6\r\nrun:10\r\n:1\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$5\r\nhello\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$0\r\n\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$40\r\n" + LARGE + "\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$8\r\n*3\r\n$7\r\n\r\n";
        List<String> expected = List.of("subscribed", "message hello", "message ", "message " + LARGE,
                "message *3\r\n$7\r\n");
        byte[] all = bytes(stream);
        for (int[] cuts : Cuts.every(all.length)) {
            RespReader reader = reader(all, cuts);
            Pushes pushes = new Pushes();
            for (int i = 0; i < expected.size(); i++) {
                reader.readPush(pushes);
            }

            assertEquals(expected, pushes.heard);
        }
    }

    /** Writes down each routed push: the route is the channel's or pattern's name before its last ':' part, as a number. */
    private static final class RoutedPushes implements RoutedPushHandler {
        final List<String> heard = new ArrayList<>();

        @Override
        public int route(byte[] name, int offset, int length) {
            String text = new String(name, offset, length, StandardCharsets.ISO_8859_1);
            return Map.of("run:10", 10, "run:11:*", 11).getOrDefault(text, -1);
        }

        @Override
        public void message(int route, byte[] data, int offset, int length) {
            heard.add("message " + route + " " + new String(data, offset, length, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void subscribed(int route) {
            heard.add("subscribed " + route);
        }

        @Override
        public void ended(IOException cause) {
            throw new AssertionError("the reader loop is the connection's, not this test's");
        }
    }

    /** A connection several consumers share routes each push by its channel, or by its pattern for a pattern's message. */
    @Test
    void routedPushesCarryTheRouteOfTheirChannelOrPatternWhereverTheStreamIsCut() throws Exception {
        String stream = "*3\r\n$9\r\nsubscribe\r\n$6\r\nrun:10\r\n:1\r\n"
                + "*3\r\n$10\r\npsubscribe\r\n$8\r\nrun:11:*\r\n:2\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$5\r\nhello\r\n"
                + "*4\r\n$8\r\npmessage\r\n$8\r\nrun:11:*\r\n$9\r\nrun:11:k2\r\n$2\r\nhi\r\n"
                + "*3\r\n$7\r\nmessage\r\n$6\r\nrun:10\r\n$40\r\n" + LARGE + "\r\n";
        List<String> expected = List.of("subscribed 10", "subscribed 11", "message 10 hello", "message 11 hi",
                "message 10 " + LARGE);
        byte[] all = bytes(stream);
        for (int[] cuts : Cuts.every(all.length)) {
            RespReader reader = reader(all, cuts);
            RoutedPushes pushes = new RoutedPushes();
            for (int i = 0; i < expected.size(); i++) {
                reader.readRoutedPush(pushes);
            }

            assertEquals(expected, pushes.heard);
        }
        ProtocolException e = assertThrows(ProtocolException.class, () -> reader(bytes(
                "*3\r\n$11\r\nunsubscribe\r\n$5\r\nrun:0\r\n:0\r\n")).readRoutedPush(new RoutedPushes()));
        assertEquals("an unexpected push on r-0: 'unsubscribe' of 3 elements", e.getMessage());
    }

    @Test
    void aPushNoSubscriberExpectsEndsTheConnectionNamingIt() {
        String[][] unexpected = {
                {"-NOPERM this user has no permissions to access the 'run:0' channel\r\n",
                        "the Redis server refused a subscription on r-0: NOPERM this user has no permissions to access "
                                + "the 'run:0' channel"},
                {"*3\r\n$11\r\nunsubscribe\r\n$5\r\nrun:0\r\n:0\r\n",
                        "an unexpected push on r-0: 'unsubscribe' of 3 elements"},
                {"*2\r\n$4\r\npong\r\n$0\r\n\r\n", "an unexpected push on r-0: 'pong' of 2 elements"},
                {"+OK\r\n", "an unexpected push on r-0: a simple string 'OK'"},
                {":1\r\n", "an unexpected push on r-0: an integer 1"},
                {"*0\r\n", "an unexpected push on r-0: an empty array"},
                {"*-1\r\n", "an unexpected push on r-0: a nil array"},
        };
        for (String[] u : unexpected) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> reader(bytes(u[0])).readPush(new Pushes()));
            assertEquals(u[1], e.getMessage());
        }
    }
}
