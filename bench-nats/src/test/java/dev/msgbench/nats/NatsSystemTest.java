package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** Core NATS through the engine, against one real nats-server shared by the class (max_payload 1 MiB). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsSystemTest {

    private static LocalNatsServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withMaxPayloadBytes(1 << 20));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void publishSubscribeDeliversEveryMessageOnceAndInOrderAcrossConsumers() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(NatsSettings.defaults(server.url())), dir, 600, 256, 3, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(780, r.counts().sent());
        assertEquals(780, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().foreign(), "probes never reach the core");
        assertEquals("none (core NATS is at-most-once)", r.durability().get("persistence"));
        assertEquals("0", r.durability().get("acks"));
        assertEquals("pubsub", r.settings().get("pattern"));
        assertEquals(server.version(), r.versions().get("broker"));
        assertTrue(r.versions().get("client").startsWith("jnats 2."), r.versions().toString());
        for (String file : new String[] {"result.json", "latency.hgrm", "service.hgrm", "latency.hlog"}) {
            assertTrue(Files.size(dir.resolve(file)) > 0, file);
        }
    }

    @Test
    void withoutConsumersPublishersSendWithoutWaitingForASubscriptionThatNeverComes() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(NatsSettings.defaults(server.url())), dir, 600, 256, 2, 0);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(780, r.counts().sent());
        assertEquals(0, r.counts().received());
    }

    @Test
    void requestReplyHandsEachEchoToTheCoreSoLatencyIsTheRoundTrip() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(NatsSettings.defaults(server.url()).withPattern(NatsPattern.REQUEST_REPLY)),
                dir, 400, 5_000, 2, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(520, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("request-reply", r.settings().get("pattern"));
        assertTrue(r.latenciesMs().latency().get("p50") > 0);
    }

    @Test
    void aMessageAboveTheServersMaxPayloadIsRefusedBeforeAnythingIsSent() throws Exception {
        NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()));
        try (system) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-big", 2 << 20, 1, 1)));
            assertEquals("--size 2097152 B: this NATS server accepts at most 1048576 bytes per message (max_payload); "
                    + "raise max_payload in its config (at most 64MB; the local server sets 8MB)", e.getMessage());
        }
    }

    @Test
    void anUnreachableServerIsReportedWithinTenSeconds() throws Exception {
        long start = System.nanoTime();
        NatsSystem system = new NatsSystem(NatsSettings.defaults("127.0.0.1:1"));
        try (system) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-x", 1024, 1, 1)));
            assertEquals("--url: no NATS server answered at 127.0.0.1:1 within 5 s; check the address, or omit --url "
                    + "to start a local server", e.getMessage());
        }
        assertFalse((System.nanoTime() - start) / 1e9 > 10, "reported within 10 s");
    }

    @Test
    void messagesOfManySizesArriveAtTheirOwnLengthsWithJnatsAndTheDirectPublisher() throws Exception {
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new NatsSystem(NatsSettings.defaults(server.url())),
                dir.resolve("jnats"), 500, "uniform:32B-4KiB", 2, 1));
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new NatsSystem(NatsSettings.defaults(server.url())
                .withPublisherClient(NatsClient.DIRECT)), dir.resolve("direct"), 500, "uniform:32B-4KiB", 2, 1));
    }

    @Test
    void producerStreamsShareAConnectionPerThreadAndConsumersOfOtherTopicsShareTheirsWithJnats() throws Exception {
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()))) {
            NatsSharedConnectionsRun.run(system, "msgbench-share-jnats", RecordKeys.NONE, server.monitor(1), false);
        }
    }

    @Test
    void producerStreamsShareAConnectionPerThreadAndConsumersOfOtherTopicsShareTheirsWithTheDirectClient() throws Exception {
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()).withPublisherClient(NatsClient.DIRECT))) {
            NatsSharedConnectionsRun.run(system, "msgbench-share-direct", RecordKeys.parse("round-robin", 3),
                    server.monitor(1), false);
        }
    }

    @Test
    void requestReplyOnSharedConnectionsEchoesEveryRequestOnceWithJnatsAndTheDirectPublisher() throws Exception {
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()).withPattern(NatsPattern.REQUEST_REPLY))) {
            NatsSharedConnectionsRun.requestReply(system, "msgbench-share-rr", server.monitor(1), List.of("msgbench-setup",
                    "msgbench-producers-0", "msgbench-producers-1", "msgbench-responders-0"));
        }
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()).withPattern(NatsPattern.REQUEST_REPLY)
                .withPublisherClient(NatsClient.DIRECT))) {
            NatsSharedConnectionsRun.requestReply(system, "msgbench-share-rr-direct", server.monitor(1), List.of("msgbench-setup",
                    "msgbench-producers-0", "msgbench-producers-1", "msgbench-producers-0-replies",
                    "msgbench-producers-1-replies", "msgbench-responders-0"));
        }
    }

    @Test
    void twoThousandStreamsOnTwoJnatsConnectionsAreFlushedWithOneRoundTripPerConnection() throws Exception {
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()))) {
            ManyStreamsRun.Observed o = ManyStreamsRun.run(system, ManyStreamsRun.plan("msgbench-many-jnats", 2000, 2), false);

            assertEquals(2, o.flushRoundTrips(), "one round trip per connection, however many streams flush it");
            assertEquals(0, o.againRoundTrips(), "nothing published since: no round trip");
        }
    }

    @Test
    void requestReplyWithManyStreamsOnSharedConnectionsProvesEachStreamsWayThereAndBackAndFlushesEachConnectionOnce()
            throws Exception {
        try (NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()).withPattern(NatsPattern.REQUEST_REPLY))) {
            // the consumer is the responder: the echoes of every stream reach its (the last subscriber's) sink
            ManyStreamsRun.Observed o = ManyStreamsRun.run(system, ManyStreamsRun.plan("msgbench-many-rr", 500, 2), false);

            assertEquals(2, o.flushRoundTrips());
        }
    }
}
