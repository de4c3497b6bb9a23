package dev.msgbench.nats.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.nats.client.Connection;
import io.nats.client.Nats;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.testing.FaultAfter;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.nats.NatsClient;
import dev.msgbench.nats.NatsPattern;
import dev.msgbench.nats.NatsSettings;
import dev.msgbench.nats.NatsSystem;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import dev.msgbench.nats.wire.WireConnection;

/**
 * Producers that write the NATS protocol themselves ({@code --nats-client direct}), received by
 * jnats consumers, against real nats-servers: one open, one that wants a user and password.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class DirectPublisherTest {

    private static LocalNatsServer server;
    private static LocalNatsServer guarded;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServers() {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withMaxPayloadBytes(1 << 20));
        guarded = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("authorization.user", "alice", "authorization.password", "s3cret-pw"))));
    }

    @AfterAll
    static void stopServers() {
        for (LocalNatsServer s : new LocalNatsServer[] {server, guarded}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static NatsSettings direct(String url) {
        return NatsSettings.defaults(url).withPublisherClient(NatsClient.DIRECT);
    }

    @Test
    void pacedMessagesArriveOnceAndInOrderAndTheResultsSayWhoPublished() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(direct(server.url())), dir, 600, 256, 3, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(780, r.counts().sent());
        assertEquals(780, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().foreign(), "probes never reach the core");
        assertEquals("direct", r.settings().get("publisherClient"));
        assertEquals("direct", r.settings().get("consumerClient"));
        assertEquals("msgbench direct NATS protocol client (producers and consumers)", r.versions().get("client"));
    }

    @Test
    void backToBackMessagesAcrossManyBufferBoundariesArriveOnceAndInOrder() throws Exception {
        // 300,000 x 100 B fill the 64 KiB buffer about 450 times; every cut must fall between messages
        RunResult r = ShortRuns.throughput(new NatsSystem(direct(server.url())), dir, 300_000, 100, 2, 1);

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(300_000, r.counts().sent());
        assertEquals(300_000, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().reordered());
        assertTrue(r.throughput().publisherMsgsPerSec() > 0);
    }

    @Test
    void messagesLargerThanTheBufferGoOutWhole() throws Exception {
        int size = FrameBuffer.CAPACITY * 3 + 7;
        RunResult r = ShortRuns.throughput(new NatsSystem(direct(server.url())), dir, 300, size, 1, 1);

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(300, r.counts().received());
        assertEquals(0, r.counts().lost());
    }

    @Test
    void withoutConsumersThePublisherIsDoneWhenTheServerAnsweredItsFlush() throws Exception {
        RunResult r = ShortRuns.throughput(new NatsSystem(direct(server.url())), dir, 50_000, 100, 1, 0);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(50_000, r.counts().sent());
        assertEquals(0, r.counts().received());
        assertTrue(r.throughput().publishSeconds() > 0);
    }

    @Test
    void requestReplyWritesRequestsDirectlyAndReceivesEchoesThroughJnats() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(direct(server.url()).withPattern(NatsPattern.REQUEST_REPLY)),
                dir, 400, 5_000, 2, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(520, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().reordered());
        assertTrue(String.valueOf(r.settings().get("connections")).contains("receiving echoes"));
    }

    @Test
    void keyedMessagesGoOutOnASubjectPerKeyAndTheWildcardSubscribersReceiveThemAllInOrder() throws Exception {
        Set<String> keySubjects = ConcurrentHashMap.newKeySet();
        CountDownLatch everyMessage = new CountDownLatch(780);
        RunResult r;
        // a watcher of its own on the server: what the run's subscribers see proves nothing about the subjects
        try (Connection watcher = Nats.connect(server.url())) {
            watcher.createDispatcher(m -> {
                if (m.getSubject().matches("msgbench-.+\\.[0-9]+\\.k[0-9]+")) {
                    keySubjects.add(m.getSubject().substring(m.getSubject().indexOf('.') + 1));
                    everyMessage.countDown();
                }
            }).subscribe(">");
            watcher.flush(Duration.ofSeconds(5));
            try (NatsSystem system = new NatsSystem(direct(server.url()))) {
                r = ShortRuns.keyedWithoutClosing(system, dir, 600, 256, 3, 2, RecordKeys.parse("round-robin", 10));
            }
            assertTrue(everyMessage.await(10, TimeUnit.SECONDS), "the watcher saw every keyed message");
        }

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(780, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().foreign(), "probes never reach the core");
        assertEquals("direct", r.settings().get("consumerClient"));
        assertEquals(30, keySubjects.size(), "3 streams round 10 keys each: " + new TreeSet<>(keySubjects));
        assertTrue(keySubjects.containsAll(List.of("0.k0", "1.k9", "2.k5")), new TreeSet<>(keySubjects).toString());
    }

    @Test
    void keyedRequestsWrittenDirectlyAreAnsweredByJnatsRespondersOnTheirWildcard() throws Exception {
        RunResult r;
        try (NatsSystem system = new NatsSystem(direct(server.url()).withPattern(NatsPattern.REQUEST_REPLY))) {
            r = ShortRuns.keyedWithoutClosing(system, dir, 400, 100, 1, 1, RecordKeys.parse("zipf:1.1", 50));
        }

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(520, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().reordered());
        assertEquals("jnats", r.settings().get("consumerClient"));
    }

    @Test
    void credentialsInTheUrlAreSentAndARunWithThemCompletes() throws Exception {
        String url = guarded.url().replace("nats://", "nats://alice:s3cret-pw@");
        // consumers use jnats with the same URL, so the whole run proves both clients authenticate
        RunResult r = ShortRuns.run(new NatsSystem(direct(url)), dir, 500, 128, 1, 1);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(0, r.counts().lost());
        assertTrue(r.counts().received() > 0);
    }

    @Test
    void aWrongPasswordIsOneLineNamingTheServersReasonWithoutThePassword() throws Exception {
        String good = guarded.url().replace("nats://", "nats://alice:s3cret-pw@");
        String bad = guarded.url().replace("nats://", "nats://alice:wrong-pw@");
        NatsSystem system = new NatsSystem(direct(good));
        try (system) {
            system.prepare(new RunPlan("msgbench-auth", 128, 1, 0));
            // the setup connection (jnats) used the good URL; the producer gets the bad one
            UserError e = assertThrows(UserError.class,
                    () -> WireConnection.open(bad, 0, "msgbench-producer-0", java.time.Duration.ofSeconds(5), false,
                            new FirstFailure()));
            assertTrue(e.getMessage().startsWith("--url: the NATS server at 127.0.0.1:"), e.getMessage());
            assertTrue(e.getMessage().contains("Authorization Violation"), e.getMessage());
            assertFalse(e.getMessage().contains("wrong-pw"), e.getMessage());
        }
    }

    @Test
    void anUnreachableServerIsAOneLineError() {
        UserError e = assertThrows(UserError.class,
                () -> WireConnection.open("127.0.0.1:1", 0, "p", java.time.Duration.ofSeconds(2), false, new FirstFailure()));
        assertTrue(e.getMessage().startsWith("--url: no NATS server answered at [127.0.0.1:1] within 2 s"), e.getMessage());
    }

    @Test
    void aServerKilledMidRunFailsTheRunWithTheProducersReasonAndNoHang() throws Exception {
        try (LocalNatsServer victim = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(false))) {
            FaultAfter.FailedRun run = new FaultAfter(new NatsSystem(direct(victim.url())), 20_000,
                    () -> victim.signal(1, Signal.KILL)).failThroughput(dir, 10_000_000, 100, 1, 0);

            // the reader or a write sees the kill first, and the system's words for it vary
            assertTrue(run.failure().matches("IOException: the connection of msgbench-[0-9a-f-]+\\.0 failed: "
                    + "connection msgbench-producer-0 lost: [^\\n]+; the direct client does not reconnect, "
                    + "--nats-client jnats rides through a restarted server.*"), run.failure());
            assertEquals(RunStatus.FAILED, run.result().status());
            long sent = run.result().counts().sent();
            assertTrue(sent > 20_000 && sent < 10_000_000, "stopped after the kill: " + sent);
        }
    }

    @Test
    void aMessageOverMaxPayloadFailsTheConnectionAtTheNextFlushAndEveryCallAfter() throws Exception {
        try (LocalNatsServer small = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(false)
                .withMaxPayloadBytes(1024))) {
            FirstFailure failures = new FirstFailure();
            WireConnection wire = WireConnection.open(small.url(), 0, "msgbench-producer-0", Duration.ofSeconds(5), false, failures);
            DirectPublisher publisher = new DirectPublisher(wire, failures, "big", null, null);
            publisher.publish(new byte[1025], 0, 0);

            // the server answers -ERR and hangs up: the PING that flush sends is never answered;
            // later failures (the hang-up, seen by the reader and maybe by the PING's write) are
            // counted. When the PING reaches the closed socket the server's kernel resets the
            // connection, and Linux then drops the unread -ERR: the reset is the first failure.
            String first = "the connection of big failed: (NATS server error on msgbench-producer-0: "
                    + "'Maximum Payload Violation'|connection msgbench-producer-0 lost: Connection reset[^(]*)";
            String reported = first + "( \\(and \\d+ later failures?\\))?";
            IOException e = assertThrows(IOException.class, publisher::flush);
            assertTrue(e.getMessage().matches(reported), e.getMessage());
            String firstFailure = e.getMessage().replaceAll(" \\(and \\d+ later failures?\\)$", "");
            IOException next = assertThrows(IOException.class, () -> publisher.publish(new byte[10], 1, 0));
            assertTrue(next.getMessage().startsWith(firstFailure), next.getMessage());
            IOException closed = assertThrows(IOException.class, publisher::close);
            assertTrue(closed.getMessage().startsWith(firstFailure), closed.getMessage());
        }
    }
}
