package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfoOptions;
import io.nats.client.api.Subject;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** JetStream through the engine, against one real nats-server with JetStream shared by the class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class JetStreamSystemTest {

    private static LocalNatsServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(true));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private JetStreamSettings settings() {
        return JetStreamSettings.defaults(server.url());
    }

    private JetStreamSystem system(JetStreamSettings settings) {
        return new JetStreamSystem(settings, server.monitor(1));
    }

    @Test
    void pushConsumersReceiveEveryAcknowledgedMessageOnceAndInOrder() throws Exception {
        RunResult r = ShortRuns.run(system(settings()), dir, 500, 1024, 2, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(650, r.counts().sent());
        assertEquals(650, r.counts().acknowledged());
        assertEquals(650, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("1", r.durability().get("acks"));
        assertEquals("file", r.durability().get("storage"));
        assertEquals("interval 2m", r.durability().get("sync"));
        assertEquals(1, r.durability().get("replicas"));
        assertEquals("explicit", r.durability().get("consumerAckPolicy"));
        assertEquals("PubAck: stored by the one replica", r.durability().get("publisherAcknowledgement"));
        assertTrue(r.latenciesMs().ack().get("p50") > 0, "PubAcks are measured");
    }

    @Test
    void pullConsumersWithMemoryStorageAndNoPubAcksReceiveEverything() throws Exception {
        RunResult r = ShortRuns.run(system(settings().withConsumer(JsConsumerMode.PULL)
                .withStorage(JsStorage.MEMORY).withAcks(Acks.NONE)), dir, 500, 256, 3, 2);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(650, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("memory", r.durability().get("storage"));
        assertEquals("n/a (memory storage)", r.durability().get("sync"));
        assertEquals("none (core publish, no PubAck awaited)", r.durability().get("publisherAcknowledgement"));
        assertEquals("pull", r.settings().get("consumer"));
    }

    @Test
    void keyedMessagesAreStoredOnASubjectPerKeyAndEachStreamsConsumerReadsThemAllInOrder() throws Exception {
        RunResult r;
        List<Subject> stored;
        try (JetStreamSystem system = system(settings())) {
            r = ShortRuns.keyedWithoutClosing(system, dir, 500, 128, 2, 2, RecordKeys.parse("round-robin", 20));
            try (Connection c = Nats.connect(server.url())) {
                stored = c.jetStreamManagement().getStreamInfo((String) r.settings().get("stream"),
                        StreamInfoOptions.allSubjects()).getStreamState().getSubjects();
            }
        }

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(650, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        // every producer stream went round its 20 keys, each key a subject of its own under the stream's
        assertEquals(40, stored.size(), stored.toString());
        assertTrue(stored.stream().allMatch(subject -> subject.getName().matches(".+\\.[01]\\.k([0-9]|1[0-9])")),
                stored.toString());
        assertEquals(r.counts().sent(), stored.stream().mapToLong(Subject::getCount).sum(), "the warm-up is stored too");
        assertTrue(String.valueOf(r.settings().get("recordKeys")).startsWith("round-robin over 20: a subject per key"),
                r.settings().toString());
    }

    @Test
    void theStreamOnTheOneLocalServerIsLedByNode1() throws Exception {
        try (JetStreamSystem system = system(settings())) {
            system.prepare(new RunPlan("msgbench-leader", 128, 1, 1));
            assertEquals(java.util.OptionalInt.of(1), system.leaderNode());
        }
    }

    @Test
    void theRunsStreamIsDeletedAtClose() throws Exception {
        JetStreamSystem system = system(settings());
        system.prepare(new RunPlan("msgbench-deleted", 1024, 1, 1));
        system.close();
        try (Connection c = Nats.connect(server.url())) {
            assertTrue(c.jetStreamManagement().getStreamNames().stream().noneMatch("msgbench-deleted"::equals));
        }
    }

    @Test
    void aServerWithoutJetStreamIsRefusedWithHowToEnableIt() throws Exception {
        try (LocalNatsServer core = LocalNatsServer.start(NatsServerSpec.defaults())) {
            JetStreamSystem system = new JetStreamSystem(JetStreamSettings.defaults(core.url()));
            try (system) {
                UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-nojs", 1024, 1, 1)));
                assertEquals("--url: the NATS server at " + core.url() + " runs without JetStream; start it with -js "
                        + "(or a jetstream block in its config), or omit --url to start a local server", e.getMessage());
            }
        }
    }

    @Test
    void moreReplicasThanServersIsAOneLineError() throws Exception {
        JetStreamSystem system = system(settings().withReplicas(3));
        try (system) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-r3", 1024, 1, 1)));
            assertTrue(e.getMessage().startsWith("cannot create JetStream stream msgbench-r3 with --js-storage file and "
                    + "--js-replicas 3: "), e.getMessage());
            assertTrue(e.getMessage().endsWith(": replicas > 1 not supported in non-clustered mode (JetStream error 10074)"),
                    e.getMessage());
        }
    }

    /* The probe that proves a producer's subject reaches the stream before it starts. */
    @Test
    void aStreamOnTheSubjectAnswersTheProbeWithoutStoringIt() throws Exception {
        try (Connection c = Nats.connect(server.url())) {
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("reach").subjects("reach.>")
                    .storageType(StorageType.Memory).build());
            try {
                StreamReach.await(c.jetStream(), "reach.0", "reach", Duration.ofSeconds(5));

                assertEquals(0, jsm.getStreamInfo("reach").getStreamState().getMsgCount());
            } finally {
                jsm.deleteStream("reach");
            }
        }
    }

    @Test
    void aSubjectNoStreamListensOnTimesOutNamingTheStream() throws Exception {
        try (Connection c = Nats.connect(server.url())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> StreamReach.await(c.jetStream(), "nobody.0", "absent", Duration.ofMillis(300)));

            assertTrue(e.getMessage().startsWith("stream absent did not answer on nobody.0 within"), e.getMessage());
        }
    }

    @Test
    void messagesOfManySizesArriveAtTheirOwnLengths() throws Exception {
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(system(settings()), dir, 500, "uniform:32B-4KiB", 2, 1));
    }

    @Test
    void sharedConnectionsCarryEachStreamsPubAcksToItsOwnListenerAndEachPushConsumerItsTopic() throws Exception {
        try (JetStreamSystem system = system(settings())) {
            NatsSharedConnectionsRun.run(system, "msgbench-share-push", RecordKeys.NONE, server.monitor(1), true);
        }
    }

    @Test
    void pullConsumersSharingConnectionsEachReceiveTheirOwnTopicWithKeys() throws Exception {
        try (JetStreamSystem system = system(settings().withConsumer(JsConsumerMode.PULL).withStorage(JsStorage.MEMORY))) {
            NatsSharedConnectionsRun.run(system, "msgbench-share-pull", RecordKeys.parse("round-robin", 3),
                    server.monitor(1), true);
        }
    }

    @Test
    void manyStreamsOnTwoConnectionsAreFlushedWithOneRoundTripPerConnectionAndEachGetsItsOwnPubAck()
            throws Exception {
        try (JetStreamSystem system = system(settings().withStorage(JsStorage.MEMORY))) {
            ManyStreamsRun.Observed o = ManyStreamsRun.run(system, ManyStreamsRun.plan("msgbench-many-js", 300, 2), true);

            assertEquals(2, o.flushRoundTrips(), "one round trip per connection, however many streams flush it");
            assertEquals(0, o.againRoundTrips());
        }
    }

    @Test
    void theSubjectsOfManyStreamsAreProvenTogetherAndOneNoStreamListensOnIsNamed() throws Exception {
        try (Connection c = Nats.connect(server.url())) {
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("reach-all").subjects("reach-all.>")
                    .storageType(StorageType.Memory).build());
            try {
                List<StreamReach.Target> targets = new java.util.ArrayList<>();
                for (int s = 0; s < 100; s++) {
                    targets.add(new StreamReach.Target("reach-all." + s, "reach-all"));
                }
                StreamReach.awaitAll(c.jetStream(), targets, Duration.ofSeconds(5));
                assertEquals(0, jsm.getStreamInfo("reach-all").getStreamState().getMsgCount());

                targets.add(new StreamReach.Target("nobody.1", "absent"));
                targets.add(new StreamReach.Target("nobody.2", "absent"));
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> StreamReach.awaitAll(c.jetStream(), targets, Duration.ofSeconds(1)));
                assertTrue(e.getMessage().startsWith("stream absent did not answer on nobody.1 within 1 s: "), e.getMessage());
                assertTrue(e.getMessage().endsWith("; nor on 1 other subject of its batch"), e.getMessage());
            } finally {
                jsm.deleteStream("reach-all");
            }
        }
    }
}
