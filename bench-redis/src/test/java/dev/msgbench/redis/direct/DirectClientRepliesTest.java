package dev.msgbench.redis.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.testing.Cuts;
import dev.msgbench.core.wire.ClientSockets;
import dev.msgbench.redis.resp.Resp;
import dev.msgbench.redis.resp.RespConnection;

/**
 * The direct RESP publishers and subscriber against a scripted server on a fake socket: replies
 * cut anywhere, many more of them than the ring of awaiting messages holds, every error a
 * command can get, replies of every wrong type, and a server that hangs up mid-run. Whatever
 * happens, each message is settled once, by the reply that is its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectClientRepliesTest {

    private static final byte[] CHANNEL = Resp.ascii("run:0");
    private static final byte[] FIELD = Resp.ascii("m");

    private static byte[] message(long i) {
        return ("message " + i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Intended send times that differ from the sequence numbers, so that a mix-up of the two shows. */
    private static long intended(long i) {
        return i * 1000 + 7;
    }

    private static final String[] REFUSALS = {
            "WRONGTYPE Operation against a key holding the wrong kind of value",
            "NOPERM this user has no permissions to run the 'publish' command",
            "OOM command not allowed when used memory > 'maxmemory'.",
            "ERR unknown command 'PUBLISH', with args beginning with: ",
            "NOAUTH Authentication required.",
            "READONLY You can't write against a read only replica.",
            "LOADING Redis is loading the dataset in memory",
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    };

    @ParameterizedTest(name = "replies read on the producer's thread: {0}")
    @ValueSource(booleans = {false, true})
    void repliesFarOutnumberingTheRingAreEachMatchedToTheirOwnMessageInOrder(boolean producerReads) throws Exception {
        int messages = 1_200;
        int capacity = 4;
        SettledMessages settled = new SettledMessages();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            int kind = i % 50;
            if (kind < REFUSALS.length) {
                expected.add("failed " + i + " at " + intended(i) + ": Redis refused PUBLISH to run:0: " + REFUSALS[kind]);
            } else if (kind == 20) {
                expected.add("failed " + i + " at " + intended(i) + ": PUBLISH to run:0 reached no subscriber");
            } else {
                expected.add("acked " + i + " at " + intended(i));
            }
        }
        try (ScriptedRedis server = new ScriptedRedis(3, (i, command) -> {
            int kind = i % 50;
            return kind < REFUSALS.length ? "-" + REFUSALS[kind] + "\r\n" : kind == 20 ? ":0\r\n" : ":" + (1 + i % 3) + "\r\n";
        })) {
            DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                    settled, Acks.BROKER, capacity);
            assertEquals(producerReads, producerReads && publisher.takeOverReplies());
            for (int i = 0; i < messages; i++) {
                publisher.publish(message(i), i, intended(i));
            }
            publisher.flush();
            publisher.close();

            assertEquals(expected, settled.all(), "300 times around a ring of 4");
            List<List<String>> commands = server.commands();
            assertEquals(messages, commands.size());
            for (int i = 0; i < messages; i++) {
                assertEquals(List.of("PUBLISH", "run:0", "message " + i), commands.get(i));
            }
        }
    }

    /**
     * Three streams on one connection, published in turn from one thread, each with a ring of 4:
     * the replies come in command order across the streams, and each reaches its own stream's
     * message, refusals and all; the connection closes once, with the last stream.
     */
    @Test
    void streamsSharingAConnectionEachSettleTheirOwnMessagesFromRepliesInCommandOrder() throws Exception {
        int streams = 3;
        int perStream = 400;
        List<SettledMessages> settled = new ArrayList<>();
        List<List<String>> expected = new ArrayList<>();
        try (ScriptedRedis server = new ScriptedRedis(5, (i, command) -> i % 7 == 3 ? "-" + REFUSALS[i % REFUSALS.length]
                + "\r\n" : ":1\r\n")) {
            List<byte[][]> channels = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                channels.add(new byte[][] {Resp.ascii("run:" + s)});
            }
            DirectProducerConnection shared = DirectClient.pubSubConnection(
                    server.connection("p-shared"), channels, 4);
            List<DirectPublisher> publishers = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                settled.add(new SettledMessages());
                expected.add(new ArrayList<>());
                publishers.add((DirectPublisher) DirectClient.pubSubPublisher(shared, s, "run:" + s, settled.get(s),
                        Acks.BROKER, 4));
            }
            for (int i = 0; i < perStream; i++) {
                for (int s = 0; s < streams; s++) {
                    int command = i * streams + s;
                    expected.get(s).add(command % 7 == 3 ? "failed " + i + " at " + intended(i) + ": Redis refused "
                            + "PUBLISH to run:" + s + ": " + REFUSALS[command % REFUSALS.length] : "acked " + i + " at " + intended(i));
                    publishers.get(s).publish(message(i), i, intended(i));
                }
            }
            for (DirectPublisher p : publishers) {
                p.flush();
                p.close();
            }
            for (int s = 0; s < streams; s++) {
                assertEquals(expected.get(s), settled.get(s).all(), "stream " + s);
            }
            List<List<String>> commands = server.commands();
            assertEquals(streams * perStream, commands.size());
            assertEquals(List.of("PUBLISH", "run:2", "message 1"), commands.get(5), "in the order published");
        }
    }

    /** The server hangs up: every stream of the connection fails what still awaits a reply, each message once. */
    @Test
    void aSharedConnectionThatEndsSettlesTheMessagesOfEveryStream() throws Exception {
        List<SettledMessages> settled = List.of(new SettledMessages(), new SettledMessages());
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> i < 2 ? ":1\r\n" : i == 2 ? ScriptedRedis.HANG_UP
                : null)) {
            DirectProducerConnection shared = DirectClient.pubSubConnection(
                    server.connection("p-shared"), List.of(new byte[][] {Resp.ascii("run:0")},
                            new byte[][] {Resp.ascii("run:1")}), 8);
            List<DirectPublisher> publishers = List.of(
                    (DirectPublisher) DirectClient.pubSubPublisher(shared, 0, "run:0", settled.get(0), Acks.BROKER, 8),
                    (DirectPublisher) DirectClient.pubSubPublisher(shared, 1, "run:1", settled.get(1), Acks.BROKER, 8));
            for (int i = 0; i < 2; i++) {
                publishers.get(0).publish(message(i), i, intended(i));
                publishers.get(1).publish(message(i), i, intended(i));
            }
            for (DirectPublisher p : publishers) {
                assertThrows(IOException.class, p::flush);
                assertThrows(IOException.class, p::close);
            }
            for (SettledMessages stream : settled) {
                List<String> events = stream.all();
                assertEquals(2, events.size(), events.toString());
                assertEquals("acked 0 at 7", events.get(0));
                assertTrue(events.get(1).startsWith("failed 1 at 1007: "), events.toString());
            }
        }
    }

    /**
     * The engine's wait for room, with the replies taken over: the calls read what is due, waiting
     * for it once it is late; a hang-up ends the wait with the connection's failure and fails what
     * still awaits a reply, as the reader thread would.
     */
    @Test
    @Timeout(10)
    void aProducerReadingItsOwnRepliesSeesTheServerHangUpWhileItWaits() throws Exception {
        SettledMessages settled = new SettledMessages();
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> i == 0 ? ":1\r\n"
                : i == 2 ? ScriptedRedis.HANG_UP : null)) {
            DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                    settled, Acks.BROKER, 16);
            assertTrue(publisher.takeOverReplies());
            assertFalse(publisher.makeProgress(), "nothing awaits a reply");
            for (int i = 0; i < 3; i++) {
                publisher.publish(message(i), i, intended(i));
            }

            // the test's pipe says nothing has arrived until a read: the first calls look, then one waits
            while (!publisher.makeProgress()) {
                Thread.onSpinWait();
            }
            IOException e = assertThrows(IOException.class, () -> {
                while (!publisher.makeProgress()) {
                    Thread.onSpinWait();
                }
            });
            assertEquals("the connection of run:0 failed: the Redis server closed p-0", e.getMessage());
            assertFalse(publisher.makeProgress(), "the connection has ended");
            assertThrows(IOException.class, publisher::close);
            assertEquals(List.of("acked 0 at 7", "failed 1 at 1007: the Redis server closed p-0",
                    "failed 2 at 2007: the Redis server closed p-0"), settled.all());
        }
    }

    /**
     * A server that stops answering without hanging up: the producer's wait for the reply is
     * bounded, so that the engine can give up or stop, as it can with a reader thread.
     */
    @Test
    @Timeout(10)
    void aProducerReadingItsOwnRepliesFromASilentServerKeepsComingBack() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = ClientSockets.unconnected()) {
            client.connect(silent.getLocalSocketAddress(), 5_000);
            try (Socket accepted = silent.accept()) {
                SettledMessages settled = new SettledMessages();
                DirectPubSubPublisher publisher = new DirectPubSubPublisher(
                        new RespConnection("p-0", client.getInputStream(), client.getOutputStream(), client),
                        new byte[][] {CHANNEL}, "run:0", settled, Acks.BROKER, 16);
                assertTrue(publisher.takeOverReplies());
                publisher.publish(message(0), 0, intended(0));
                long start = System.nanoTime();
                for (int i = 0; i < 20; i++) {
                    assertFalse(publisher.makeProgress(), "no reply came");
                }
                assertTrue(System.nanoTime() - start < 5_000_000_000L, "each call came back");
                assertEquals(List.of(), settled.all());
            }
        }
    }

    /** Once the first message has started the reader thread, the replies stay with it. */
    @Test
    void theRepliesCannotBeTakenOverAfterTheFirstMessage() throws Exception {
        SettledMessages settled = new SettledMessages();
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> ":1\r\n")) {
            DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                    settled, Acks.BROKER, 4);
            publisher.publish(message(0), 0, intended(0));
            assertFalse(publisher.takeOverReplies());
            assertFalse(publisher.makeProgress(), "the reader thread reads, not the caller");
            publisher.flush();
            publisher.close();
            assertEquals(List.of("acked 0 at 7"), settled.all());
        }
    }

    @Test
    void aReplyOfATypePublishNeverGetsEndsTheConnectionAndSettlesEveryMessage() throws Exception {
        String[][] unexpected = {
                {"+OK\r\n", "a simple string 'OK'"},
                {"$-1\r\n", "a nil"},
                {"*-1\r\n", "a nil"},
                {"$3\r\nabc\r\n", "a bulk string of 3 bytes"},
                {"*2\r\n*1\r\n:1\r\n$2\r\nhi\r\n", "an array of 2 elements"},
        };
        for (String[] reply : unexpected) {
            String problem = "Redis answered PUBLISH to run:0 with " + reply[1] + " where PUBLISH's count (an integer) was due";
            assertConnectionEndsOn(reply[0], problem);
        }
        assertConnectionEndsOn("%1\r\n+a\r\n+b\r\n", "a reply of unknown type '%' on p-0 (RESP2 has + - : $ *)");
    }

    /** Message 0 is acknowledged, message 1 gets {@code reply}; message 2's reply never comes. */
    private static void assertConnectionEndsOn(String reply, String problem) throws Exception {
        SettledMessages settled = new SettledMessages();
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> i == 0 ? ":1\r\n" : i == 1 ? reply : null)) {
            DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                    settled, Acks.BROKER, 8);
            for (int i = 0; i < 3; i++) {
                publisher.publish(message(i), i, intended(i));
            }

            IOException flushed = assertThrows(IOException.class, publisher::flush);
            assertEquals("the connection of run:0 failed: " + problem, flushed.getMessage());
            IOException next = assertThrows(IOException.class, () -> publisher.publish(message(3), 3, intended(3)));
            assertEquals(flushed.getMessage(), next.getMessage());
            IOException closed = assertThrows(IOException.class, publisher::close);
            assertEquals(flushed.getMessage(), closed.getMessage());

            assertEquals(List.of("acked 0 at 7", "failed 1 at 1007: " + problem, "failed 2 at 2007: " + problem,
                    "failed 3 at 3007: " + flushed.getMessage()), settled.all(), "4 sent, 4 settled");
        }
    }

    @Test
    void xaddAndWaitRepliesInPairsSettleEachMessageByBoth() throws Exception {
        int messages = 300;
        String refusedWait = "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 "
                + "if a replica is configured to be writable (which is not the default) writes to replicas are just "
                + "local and are not propagated.";
        SettledMessages settled = new SettledMessages();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            String at = i + " at " + intended(i);
            switch (i % 10) {
                case 3 -> expected.add("failed " + at + ": Redis refused XADD to run:0: " + REFUSALS[0]);
                case 5 -> expected.add("failed " + at + ": WAIT: 1 of 2 replicas acknowledged within 100 ms");
                case 7 -> expected.add("failed " + at + ": Redis refused WAIT after XADD to run:0: " + refusedWait);
                default -> expected.add("acked " + at);
            }
        }
        try (ScriptedRedis server = new ScriptedRedis(4, (c, command) -> {
            int kind = (c / 2) % 10;
            if (c % 2 == 0) {
                return kind == 3 ? "-" + REFUSALS[0] + "\r\n" : "$15\r\n1700000000000-" + (c % 10) + "\r\n";
            }
            return kind == 5 ? ":1\r\n" : kind == 7 ? "-" + refusedWait + "\r\n" : ":2\r\n";
        })) {
            DirectStreamPublisher publisher = new DirectStreamPublisher(server.connection("p-0"), CHANNEL, "run:0",
                    1000, FIELD, null, null, settled, Acks.ALL, 2, Duration.ofMillis(100), 3);
            for (int i = 0; i < messages; i++) {
                publisher.publish(message(i), i, intended(i));
            }
            publisher.flush();
            publisher.close();

            assertEquals(expected, settled.all());
            List<List<String>> commands = server.commands();
            assertEquals(2 * messages, commands.size());
            assertEquals(List.of("XADD", "run:0", "MAXLEN", "~", "1000", "*", "m", "message 0"), commands.get(0));
            assertEquals(List.of("WAIT", "2", "100"), commands.get(1));
        }
    }

    @Test
    void aStreamReplyOfTheWrongTypeNamesWhatCameAndWhatWasDue() throws Exception {
        assertStreamConnectionEndsOn(Acks.BROKER, ":1\r\n",
                "Redis answered XADD to run:0 with an integer 1 where XADD's stream ID (a bulk string) was due");
        assertStreamConnectionEndsOn(Acks.ALL, "$3\r\n1-0\r\n",
                "Redis answered XADD to run:0 with a stream ID where WAIT's count (an integer) was due");
    }

    /** Every command gets {@code reply}. */
    private static void assertStreamConnectionEndsOn(Acks mode, String reply, String problem) throws Exception {
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> reply)) {
            DirectStreamPublisher publisher = new DirectStreamPublisher(server.connection("p-0"), CHANNEL, "run:0",
                    1000, FIELD, null, null, new SettledMessages(), mode, 1, Duration.ofMillis(100), 4);
            publisher.publish(message(0), 0, intended(0));

            IOException e = assertThrows(IOException.class, publisher::flush);
            assertEquals("the connection of run:0 failed: " + problem, e.getMessage());
            assertThrows(IOException.class, publisher::close);
        }
    }

    @ParameterizedTest(name = "replies read on the producer's thread: {0}")
    @ValueSource(booleans = {false, true})
    void aServerThatHangsUpMidReplyFailsEveryMessageStillAwaitingOne(boolean producerReads) throws Exception {
        for (int[] cut : Cuts.every(":1\r\n".length())) {
            SettledMessages settled = new SettledMessages();
            try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> i < 4 ? ":1\r\n"
                    : i == 4 ? ":1\r\n".substring(0, cut[0]) + ScriptedRedis.HANG_UP : null)) {
                DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                        settled, Acks.BROKER, 16);
                assertEquals(producerReads, producerReads && publisher.takeOverReplies());
                for (int i = 0; i < 10; i++) {
                    publisher.publish(message(i), i, intended(i));
                }

                IOException e = assertThrows(IOException.class, publisher::flush);
                assertEquals("the connection of run:0 failed: the Redis server closed p-0", e.getMessage());
                assertThrows(IOException.class, () -> publisher.publish(message(10), 10, intended(10)));
                assertThrows(IOException.class, publisher::close);

                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    expected.add("acked " + i + " at " + intended(i));
                }
                for (int i = 4; i < 10; i++) {
                    expected.add("failed " + i + " at " + intended(i) + ": the Redis server closed p-0");
                }
                expected.add("failed 10 at 10007: " + e.getMessage());
                assertEquals(expected, settled.all(), "11 sent, 11 settled");
            }
        }
    }

    @ParameterizedTest(name = "replies read on the producer's thread: {0}")
    @ValueSource(booleans = {false, true})
    void aProducerWaitingForASlotWhenTheServerHangsUpFailsInsteadOfWaitingForever(boolean producerReads) throws Exception {
        SettledMessages settled = new SettledMessages();
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) -> i == 0 ? ":1\r\n"
                : i == 2 ? ScriptedRedis.HANG_UP : null)) {
            DirectPubSubPublisher publisher = new DirectPubSubPublisher(server.connection("p-0"), new byte[][] {CHANNEL}, "run:0",
                    settled, Acks.BROKER, 2);
            assertEquals(producerReads, producerReads && publisher.takeOverReplies());
            publisher.publish(message(0), 0, intended(0));
            publisher.publish(message(1), 1, intended(1));
            // the ring is full: this one waits for a slot, which only message 0's reply frees
            publisher.publish(message(2), 2, intended(2));

            // full again: this one waits for message 1's reply, which never comes
            IOException e = assertThrows(IOException.class, () -> publisher.publish(message(3), 3, intended(3)));
            assertEquals("the connection of run:0 failed: the Redis server closed p-0", e.getMessage());
            assertThrows(IOException.class, publisher::close);
            assertEquals(List.of("acked 0 at 7", "failed 1 at 1007: the Redis server closed p-0",
                    "failed 2 at 2007: the Redis server closed p-0", "failed 3 at 3007: " + e.getMessage()),
                    settled.all());
        }
    }

    /** Keeps what a subscriber hands over. */
    private static final class Received implements MessageSink {
        final List<String> messages = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch arrived;
        final CompletableFuture<Throwable> error = new CompletableFuture<>();

        Received(int expected) {
            arrived = new CountDownLatch(expected);
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            messages.add(new String(data, offset, length, StandardCharsets.ISO_8859_1));
            arrived.countDown();
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            throw new AssertionError("the direct subscriber hands over arrays");
        }

        @Override
        public void onError(Throwable e) {
            error.complete(e);
        }
    }

    @Test
    void aSubscriberReceivesPushesCutAnywhereAndReportsTheServerHangingUp() throws Exception {
        String confirm = "*3\r\n$9\r\nsubscribe\r\n$5\r\nrun:0\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$5\r\nrun:1\r\n:2\r\n";
        String pushes = "*3\r\n$7\r\nmessage\r\n$5\r\nrun:0\r\n$5\r\nfirst\r\n"
                + "*3\r\n$7\r\nmessage\r\n$5\r\nrun:1\r\n$6\r\nsecond\r\n";
        for (int[] cuts : Cuts.every(confirm.length() + pushes.length())) {
            Received received = new Received(2);
            ScriptedRedis server = new ScriptedRedis(1, (i, command) -> null);
            try {
                DirectPubSubSubscriber subscriber = new DirectPubSubSubscriber(server.connection("c-0"),
                        List.of(Resp.ascii("run:0"), Resp.ascii("run:1")), List.of(), received,
                        () -> "Redis disconnects subscribers that fall behind by more than client-output-buffer-limit "
                                + "pubsub (unknown)");
                server.send(confirm + pushes, cuts);
                subscriber.awaitReady(Duration.ofSeconds(10));
                received.arrived.await();
                server.hangUp();

                Throwable e = received.error.get(10, TimeUnit.SECONDS);
                assertEquals("a Redis subscriber lost its connection; what was published meanwhile is lost (Redis "
                        + "disconnects subscribers that fall behind by more than client-output-buffer-limit pubsub "
                        + "(unknown)): the Redis server closed c-0; the direct client does not reconnect; "
                        + "--redis-client lettuce rides through a restarted server", e.getMessage());
                assertEquals(List.of("first", "second"), received.messages);
                subscriber.close();
            } finally {
                server.close();
            }
            // read by now: the server has read all the client wrote when it closes
            assertEquals(List.of(List.of("SUBSCRIBE", "run:0", "run:1")), server.commands());
        }
    }

    @Test
    void aRefusedSubscriptionIsTheSubscribersFailureNotALostConnection() throws Exception {
        Received received = new Received(0);
        try (ScriptedRedis server = new ScriptedRedis(1, (i, command) ->
                "-NOPERM this user has no permissions to access the 'run:0' channel\r\n")) {
            DirectPubSubSubscriber subscriber = new DirectPubSubSubscriber(server.connection("c-0"),
                    List.of(Resp.ascii("run:0")), List.of(), received, () -> "(unknown)");

            IOException e = assertThrows(IOException.class, () -> subscriber.awaitReady(Duration.ofSeconds(10)));
            assertEquals("a Redis subscriber failed before it was subscribed: the Redis server refused a subscription "
                    + "on c-0: NOPERM this user has no permissions to access the 'run:0' channel", e.getMessage());
            assertEquals("a Redis subscriber failed: the Redis server refused a subscription on c-0: NOPERM this user "
                    + "has no permissions to access the 'run:0' channel", received.error.get(10, TimeUnit.SECONDS).getMessage());
            subscriber.close();
        }
    }
}
