package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.stream.Environment;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The streams adapter driven by the real engine against one real local node with the stream plugin, shared by the class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitStreamsSystemTest {

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(90)
    static void startBroker() {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()).withStreams());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyMessageIsConfirmedAndReceivedOnceAndInOrderAndTheDurabilityIsReadBack() throws Exception {
        RunResult r = ShortRuns.run(system(StreamSettings.defaults(broker.url()).withReplicas(1)), dir, 500, 256, 2, 1,
                Duration.ofMillis(500), Duration.ofSeconds(2));

        assertEquals(1_250, r.counts().sent(), "500 a second over 2.5 s");
        assertEquals(1_250, r.counts().acknowledged());
        assertCleanCounts(r);
        Map<String, Object> d = r.durability();
        assertEquals("all", d.get("acks"));
        assertEquals(true, d.get("confirms"));
        assertEquals(RabbitStreamsSystem.CONFIRMED_WHEN, d.get("confirmedWhen"));
        assertEquals(1, d.get("replicas"));
        assertEquals("1", d.get("initialClusterSize"));
        assertEquals("500000000 (RabbitMQ's default)", d.get("maxSegmentSizeBytes"));
        assertEquals("none: the stream keeps every message", d.get("retention"));
        assertEquals(Map.of("x-initial-cluster-size", "1", "x-queue-leader-locator", "balanced",
                "x-queue-type", "stream"), d.get("streamArguments"), "as rabbitmqctl reads them back");
        assertEquals(broker.version(), d.get("serverVersion"));
        assertEquals(broker.version(), r.versions().get("broker"));
        assertEquals("stream-client 1.11.0", r.versions().get("client"));
        assertEquals(StreamSettings.DEFAULT_MAX_UNCONFIRMED, r.settings().get("maxUnconfirmed"));
        assertTrue(Files.size(dir.resolve("result.json")) > 0);
    }

    @Test
    void aConsumerThatStartsAfterABacklogReadsItFromTheStreamsFirstMessage() throws Exception {
        RunResult r = ShortRuns.withBacklog(system(StreamSettings.defaults(broker.url())), dir, 500, 128,
                Duration.ofSeconds(1), new Backlog(300, 0));

        assertEquals(500, r.counts().sent(), "the backlog among them");
        assertCleanCounts(r);
    }

    @Test
    void throughputLosesNothingAndEveryPublishIsConfirmed() throws Exception {
        RunResult r = ShortRuns.throughput(system(StreamSettings.defaults(broker.url()).withMaxUnconfirmed(500)), dir,
                20_000, 100, 1, 1);

        assertEquals(20_000, r.counts().sent());
        assertEquals(20_000, r.counts().acknowledged());
        assertCleanCounts(r);
        assertEquals(500, r.settings().get("maxUnconfirmed"));
    }

    @Test
    void theRunsStreamsAreDeletedWhenItCloses() throws Exception {
        RabbitStreamsSystem system = system(StreamSettings.defaults(broker.url()));
        try (system) {
            system.prepare(new RunPlan("msgbench-streams-deleted", 100, 2, 2, 2, 1));
            assertTrue(exists("msgbench-streams-deleted-t0") && exists("msgbench-streams-deleted-t1"),
                    "a stream per topic");
        }
        assertEquals(List.of(false, false), List.of(exists("msgbench-streams-deleted-t0"),
                exists("msgbench-streams-deleted-t1")));
    }

    @Test
    void superStreamsAndSingleActiveConsumersAreRefusedOnRabbitMq310NamingTheVersion() throws Exception {
        UserError superStreams = refusedAtPrepare(StreamSettings.defaults(broker.url()).withSuperStreamPartitions(3),
                new RunPlan("msgbench-super", 100, 1, 1));
        UserError sac = refusedAtPrepare(StreamSettings.defaults(broker.url()).withSingleActiveConsumer(true),
                new RunPlan("msgbench-sac", 100, 1, 1));

        assertEquals(RabbitStreamsTarget.newerBrokerNeeded("--super-stream-partitions", broker.version()),
                superStreams.getMessage());
        assertEquals("--stream-single-active-consumer needs RabbitMQ 3.11 or later, where super streams and single "
                + "active consumers on streams arrived; this RabbitMQ is " + broker.version() + ": leave it out, or "
                + "start the RabbitMQ 4.0 that scripts/setup installs with --rabbitmq-bin "
                + "~/.cache/msgbench/rabbitmq-trixie/usr/lib/rabbitmq/bin, or pass --url to a newer broker",
                sac.getMessage());
    }

    @Test
    void theTargetRefusesSuperStreamsBeforeDebiansRabbitMqStarts() {
        RabbitStreamsTarget streams = new RabbitStreamsTarget(new RabbitMqTarget());
        streams.superStreamPartitions = 2;

        UserError e = assertThrows(UserError.class, () -> streams.validate(Acks.ALL, 1));

        assertEquals(RabbitStreamsTarget.newerBrokerNeeded("--super-stream-partitions",
                RabbitBrokerSpec.defaults().installedVersion().orElseThrow()), e.getMessage());
    }

    @Test
    void twoConsumersSharingASubscriptionAreRefusedWithoutSingleActiveConsumer() throws Exception {
        UserError e = refusedAtPrepare(StreamSettings.defaults(broker.url()), new RunPlan("msgbench-shared", 100, 1, 2));

        assertEquals("rabbitmq-streams: each consumer of a stream reads all of it, so 2 consumers per subscription "
                + "would each receive every message; add --stream-single-active-consumer (RabbitMQ 3.11 or later), "
                + "with --super-stream-partitions N to spread the partitions over the consumers, or use one consumer "
                + "per topic and subscription (--consumers = --topics x --subscriptions-per-topic)", e.getMessage());
    }

    private UserError refusedAtPrepare(StreamSettings settings, RunPlan plan) throws Exception {
        RabbitStreamsSystem system = system(settings);
        try (system) {
            return assertThrows(UserError.class, () -> system.prepare(plan));
        }
    }

    @Test
    void aBrokerGivenByUrlTellsItsVersionThroughTheStreamProtocol() throws Exception {
        RabbitStreamsSystem system = new RabbitStreamsSystem(StreamSettings.defaults(broker.url()), null);
        try (system) {
            system.prepare(new RunPlan("msgbench-by-url", 100, 1, 1));
            assertEquals(broker.version(), system.info().brokerVersion());
            assertEquals("the broker's default (--url: not read back)", system.info().durability().get("replicas"));
        }
    }

    private static RabbitStreamsSystem system(StreamSettings settings) {
        return new RabbitStreamsSystem(settings.withAcks(Acks.ALL), broker);
    }

    private static boolean exists(String stream) {
        try (Environment environment = RabbitStreamsSystem.environment(List.of(broker.url()),
                StreamClientSecurity.of(List.of(broker.url()), ClientSecurity.NONE))) {
            return environment.streamExists(stream);
        }
    }

    private static void assertCleanCounts(RunResult r) {
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings() + " " + r.error());
        assertEquals(r.counts().sent(), r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().sendErrors());
    }
}
