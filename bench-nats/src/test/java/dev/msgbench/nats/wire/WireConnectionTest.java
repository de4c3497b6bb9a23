package dev.msgbench.nats.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.UserError;
import dev.msgbench.core.testing.Cuts;
import dev.msgbench.core.testing.FakeSocket;
import dev.msgbench.core.wire.FrameBuffer;

/**
 * The NATS protocol client against a fake socket: every line the server sends reaches it cut at
 * every byte boundary, and once a byte at a time, as a TCP stream may deliver it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WireConnectionTest {

    private static final String INFO = "INFO {\"server_id\":\"NBX\",\"version\":\"2.15.2\",\"proto\":1,"
            + "\"max_payload\":1048576,\"headers\":true}\r\n";
    private static final String CONNECT = "CONNECT {\"verbose\":false,\"pedantic\":false,\"tls_required\":false,"
            + "\"name\":\"p-0\",\"lang\":\"java\",\"version\":\"msgbench-direct\",\"protocol\":1,\"echo\":true,"
            + "\"user\":\"alice\",\"pass\":\"s3cret\"}\r\n";
    private static final ServerAddress SERVER = new ServerAddress("h", 4222, "alice", "s3cret", null);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** What the client wrote, up to and with {@code end}. */
    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (!read.toString(StandardCharsets.UTF_8).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the client closed after '" + read.toString(StandardCharsets.UTF_8) + "'");
            }
            read.write(b);
        }
        return read.toString(StandardCharsets.UTF_8);
    }

    /** A connection past its handshake, its reader started, what it wrote so far read. */
    private static WireConnection connected(FakeSocket socket, FirstFailure failures) throws IOException {
        socket.toClient().write(ascii(INFO + "PONG\r\n"));
        WireConnection c = WireConnection.handshake(socket.clientIn(), socket.clientOut(), socket, SERVER, "p-0", failures);
        readUntil(socket.serverIn(), "PING\r\n");
        c.startReading();
        return c;
    }

    /** Answers the client's next PING with a PONG cut at {@code cuts}, after {@code before}. */
    private static CompletableFuture<Void> answerPing(FakeSocket socket, String before, int... cuts) {
        return CompletableFuture.runAsync(() -> {
            try {
                readUntil(socket.serverIn(), "PING\r\n");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            socket.toClient().write(ascii(before + "PONG\r\n"), cuts);
        });
    }

    @Test
    void theHandshakeReadsTheGreetingAndItsPongWhereverTheyAreCut() throws Exception {
        byte[] server = ascii(INFO + "PONG\r\n");
        for (int[] cuts : Cuts.every(server.length)) {
            try (FakeSocket socket = new FakeSocket()) {
                socket.toClient().write(server, cuts);
                WireConnection c = WireConnection.handshake(socket.clientIn(), socket.clientOut(), socket, SERVER, "p-0",
                        new FirstFailure());

                assertEquals(1048576, c.maxPayload());
                assertEquals("2.15.2", c.serverVersion());
                assertEquals(CONNECT + "PING\r\n", readUntil(socket.serverIn(), "PING\r\n"));
                c.close();
            }
        }
    }

    @Test
    void theServerRefusingTheCredentialsIsOneLineWithItsReasonAndNoSecret() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii(INFO + "-ERR 'Authorization Violation'\r\n"), INFO.length() + 3);
            UserError e = assertThrows(UserError.class, () -> WireConnection.handshake(socket.clientIn(),
                    socket.clientOut(), socket, SERVER, "p-0", new FirstFailure()));
            assertEquals("--url: the NATS server at h:4222 refused the connection: 'Authorization Violation'",
                    e.getMessage());
        }
    }

    @Test
    void aServerThatGreetsWithoutInfoIsNotNats() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii("HTTP/1.1 400 Bad Request\r\n"), 4);
            IOException e = assertThrows(IOException.class, () -> WireConnection.handshake(socket.clientIn(),
                    socket.clientOut(), socket, SERVER, "p-0", new FirstFailure()));
            assertEquals("h:4222 is not a NATS server: it greeted with 'HTTP/1.1 400 Bad Request'", e.getMessage());
        }
    }

    @Test
    void aServerThatWantsTlsIsRefusedInOneLine() {
        try (FakeSocket socket = new FakeSocket()) {
            socket.toClient().write(ascii("INFO {\"version\":\"2.15.2\",\"tls_required\":true}\r\n"));
            UserError e = assertThrows(UserError.class, () -> WireConnection.handshake(socket.clientIn(),
                    socket.clientOut(), socket, SERVER, "p-0", new FirstFailure()));
            assertEquals("--url: the NATS server at h:4222 requires TLS, which --nats-client direct does not speak; "
                    + "use --nats-client jnats", e.getMessage());
        }
    }

    @Test
    void theServersPingIsAnsweredWhereverItIsCut() throws Exception {
        for (int[] cuts : Cuts.every("PING\r\n".length())) {
            try (FakeSocket socket = new FakeSocket()) {
                WireConnection c = connected(socket, new FirstFailure());
                socket.toClient().write(ascii("PING\r\n"), cuts);

                assertEquals("PONG\r\n", readUntil(socket.serverIn(), "PONG\r\n"));
                c.close();
            }
        }
    }

    @Test
    void aFlushWaitsForItsPongWhereverItIsCut() throws Exception {
        for (int[] cuts : Cuts.every("+OK\r\nPONG\r\n".length())) {
            try (FakeSocket socket = new FakeSocket()) {
                FirstFailure failures = new FirstFailure();
                WireConnection c = connected(socket, failures);
                CompletableFuture<Void> server = answerPing(socket, "+OK\r\n", cuts);

                c.ping(TIMEOUT);

                server.get(10, TimeUnit.SECONDS);
                assertNull(failures.first(), "+OK needs no answer and is no failure");
                c.close();
            }
        }
    }

    @Test
    void everyErrorTheServerSendsBecomesTheConnectionsFailureInOneLine() throws Exception {
        String[] errors = {"'Permissions Violation for Publish to \"run.0\"'", "'Maximum Payload Violation'",
                "'Stale Connection'", "'Slow Consumer'"};
        for (String error : errors) {
            String line = "-ERR " + error + "\r\n";
            for (int[] cuts : Cuts.every(line.length())) {
                try (FakeSocket socket = new FakeSocket()) {
                    FirstFailure failures = new FirstFailure();
                    WireConnection c = connected(socket, failures);
                    CompletableFuture<Void> server = answerPing(socket, line, cuts);

                    // the PONG comes after the error: once the flush returns, the error has been read
                    c.ping(TIMEOUT);

                    server.get(10, TimeUnit.SECONDS);
                    assertEquals("the connection of run.0 failed: NATS server error on p-0: " + error,
                            failures.reported("the connection of run.0").getMessage());
                    c.close();
                }
            }
        }
    }

    @Test
    void aServerThatHangsUpMidLineFailsTheWaitingFlush() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            FirstFailure failures = new FirstFailure();
            WireConnection c = connected(socket, failures);
            CompletableFuture<Void> server = CompletableFuture.runAsync(() -> {
                try {
                    readUntil(socket.serverIn(), "PING\r\n");
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                socket.toClient().write(ascii("PON"));
                socket.hangUp();
            });

            IOException e = assertThrows(IOException.class, () -> c.ping(TIMEOUT));

            server.get(10, TimeUnit.SECONDS);
            assertEquals("p-0 failed: connection p-0 lost: the server closed the connection; the direct client does not "
                    + "reconnect, --nats-client jnats rides through a restarted server", e.getMessage());
            c.close();
        }
    }

    @Test
    void publishFramesArePubLinesWithTheSubjectAndReplySubject() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            WireConnection c = connected(socket, new FirstFailure());
            FrameBuffer requests = c.publishFrames("run.0", "run-reply.0");
            FrameBuffer messages = c.publishFrames("run.1", null);
            requests.add(ascii("abc"));
            requests.flush();
            messages.add(ascii(""));
            messages.flush();

            assertEquals("PUB run.0 run-reply.0 3\r\nabc\r\n", readUntil(socket.serverIn(), "abc\r\n"));
            assertEquals("PUB run.1 0\r\n\r\n", readUntil(socket.serverIn(), "0\r\n\r\n"));
            c.close();
        }
    }

    @Test
    void keyedPublishFramesCarryEachKeysSubjectBuiltOnceWithTheReplySubject() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            WireConnection c = connected(socket, new FirstFailure());
            FrameBuffer keyed = c.publishFrames(List.of("run.0", "run.0.k0", "run.0.k1"), "run-reply.0");
            keyed.add(2, ascii("abc"));
            keyed.add(0, ascii("probe"));
            keyed.add(1, ascii("de"));
            keyed.flush();

            assertEquals("PUB run.0.k1 run-reply.0 3\r\nabc\r\nPUB run.0 run-reply.0 5\r\nprobe\r\n"
                    + "PUB run.0.k0 run-reply.0 2\r\nde\r\n", readUntil(socket.serverIn(), "de\r\n"));
            c.close();
        }
    }

    @Test
    void aBufferSharedByStreamsGivesEachLineItsOwnReplySubject() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            WireConnection c = connected(socket, new FirstFailure());
            FrameBuffer shared = c.publishFrames(List.of("t0.0", "t1.3"), java.util.Arrays.asList("r.0", null));
            shared.add(1, ascii("b"));
            shared.add(0, ascii("a"));
            shared.flush();
            c.unsubscribe(7);

            assertEquals("PUB t1.3 1\r\nb\r\nPUB t0.0 r.0 1\r\na\r\nUNSUB 7\r\n",
                    readUntil(socket.serverIn(), "UNSUB 7\r\n"));
            c.close();
        }
    }

    @Test
    void aFlushOfAConnectionWithNothingWrittenSinceItsLastAnsweredPingSendsNoOther() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            WireConnection c = connected(socket, new FirstFailure());
            FrameBuffer frames = c.publishFrames("run.0", null);
            frames.add(ascii("a"));
            frames.flush();
            CompletableFuture<Void> server = answerPing(socket, "");
            c.pingIfWritten(TIMEOUT);
            server.get(10, TimeUnit.SECONDS);

            // unanswered, a PING would time out here
            c.pingIfWritten(Duration.ofMillis(200));
            frames.add(ascii("b"));
            frames.flush();
            server = answerPing(socket, "");
            c.pingIfWritten(TIMEOUT);
            server.get(10, TimeUnit.SECONDS);

            frames.add(ascii("end"));
            frames.flush();
            // the server read up to each PING it answered: after b's, no other came
            assertEquals("PUB run.0 3\r\nend\r\n", readUntil(socket.serverIn(), "end\r\n"));
            c.close();
        }
    }

    /** What a receiving connection was handed, in order. */
    private static final class Received implements WireConnection.MessageReceiver {
        final List<String> messages = new CopyOnWriteArrayList<>();
        final List<String> failures = new CopyOnWriteArrayList<>();

        @Override
        public void message(long sid, byte[] buffer, int offset, int length) {
            messages.add(sid + ":" + new String(buffer, offset, length, StandardCharsets.US_ASCII));
        }

        @Override
        public void failed(IOException failure) {
            failures.add(failure.getMessage());
        }
    }

    private static WireConnection receiving(FakeSocket socket, FirstFailure failures, Received received) throws IOException {
        socket.toClient().write(ascii(INFO + "PONG\r\n"));
        WireConnection c = WireConnection.handshake(socket.clientIn(), socket.clientOut(), socket, SERVER, "c-0", failures,
                received);
        readUntil(socket.serverIn(), "PING\r\n");
        c.startReading();
        return c;
    }

    @Test
    void aReceivingConnectionSubscribesAndGetsEveryMessageAndPingWhereverTheyAreCut() throws Exception {
        String server = "MSG run.0 0 3\r\nabc\r\nPING\r\nMSG run.1 1 0\r\n\r\n";
        for (int[] cuts : Cuts.every(server.length())) {
            try (FakeSocket socket = new FakeSocket()) {
                Received received = new Received();
                WireConnection c = receiving(socket, new FirstFailure(), received);
                c.subscribe("run.0", null, 0);
                c.subscribe("run.1", "group", 1);
                assertEquals("SUB run.0 0\r\nSUB run.1 group 1\r\n", readUntil(socket.serverIn(), "group 1\r\n"));

                CompletableFuture<Void> answered = answerPing(socket, server, cuts);
                c.ping(TIMEOUT);
                answered.get(10, TimeUnit.SECONDS);

                assertEquals(List.of("0:abc", "1:"), received.messages);
                assertEquals("PONG\r\n", readUntil(socket.serverIn(), "PONG\r\n"));
                assertEquals(List.of(), received.failures);
                c.close();
            }
        }
    }

    @Test
    void aReceivingConnectionsErrorsAndItsLossReachTheReceiver() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            Received received = new Received();
            FirstFailure failures = new FirstFailure();
            WireConnection c = receiving(socket, failures, received);
            CompletableFuture<Void> answered = answerPing(socket, "-ERR 'Slow Consumer'\r\n");
            c.ping(TIMEOUT);
            answered.get(10, TimeUnit.SECONDS);
            socket.hangUp();

            assertThrows(IOException.class, () -> c.ping(TIMEOUT));
            assertEquals(List.of("NATS server error on c-0: 'Slow Consumer'", "connection c-0 lost: the server closed the "
                    + "connection; the direct client does not reconnect, --nats-client jnats rides through a restarted "
                    + "server"), received.failures);
            assertEquals(2, failures.count());
            c.close();
        }
    }

    @Test
    void aMessageToAPublishingConnectionIsAFailureSinceItSubscribedToNothing() throws Exception {
        try (FakeSocket socket = new FakeSocket()) {
            FirstFailure failures = new FirstFailure();
            WireConnection c = connected(socket, failures);
            CompletableFuture<Void> answered = answerPing(socket, "MSG run.0 0 3\r\nabc\r\n");
            c.ping(TIMEOUT);
            answered.get(10, TimeUnit.SECONDS);

            assertEquals("NATS server sent a message to p-0, which subscribed to nothing",
                    failures.first().getMessage().replaceFirst("^the ", ""));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.subscribe("run.0", null, 0));
            assertEquals("p-0 publishes only: it has no receiver for messages", e.getMessage());
            c.close();
        }
    }
}
