package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/** Redis pub/sub against one real local redis-server, shared by the tests of this class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisPubSubSystemTest {

    private static LocalRedis redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() {
        redis = LocalRedis.start(RedisBrokerSpec.defaults());
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void twoProducersAndThreeConsumersReceiveEveryMessageOnceAndInOrder() throws Exception {
        RunResult r;
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()))) {
            r = ShortRuns.runWithoutClosing(system, dir, 1_000, 256, 2, 3, Duration.ofMillis(500), Duration.ofSeconds(2));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(2_500, r.counts().sent());
        assertEquals(2_500, r.counts().received());
        assertEquals(2_500, r.counts().acknowledged());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals(0, r.counts().foreign());
        assertEquals("1", r.durability().get("acks"));
        assertEquals("no", r.durability().get("appendonly"));
        assertEquals("\"\" (no RDB snapshots)", r.durability().get("save"));
        assertEquals(0, r.durability().get("replicas"));
        assertEquals("at-most-once (pub/sub keeps nothing)", r.durability().get("delivery"));
        assertEquals("33554432 8388608 60", r.durability().get("client-output-buffer-limit pubsub"));
        assertEquals(redis.version(), r.versions().get("broker"));
        assertTrue(r.versions().get("client").startsWith("lettuce 7."), r.versions().toString());
        for (String file : List.of("result.json", "latency.hgrm", "service.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(dir.resolve(file)) > 0, file);
        }
    }

    /** 1 MiB messages at 50 msg/s, as E1 sends them, reach the subscriber without it falling 32 MB behind. */
    @Test
    void oneMebibyteMessagesAtFiftyPerSecondAllArrive() throws Exception {
        RunResult r;
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()))) {
            r = ShortRuns.runWithoutClosing(system, dir, 50, 1 << 20, 1, 1, Duration.ofMillis(500), Duration.ofSeconds(1));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(75, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals("RESP2", r.settings().get("protocol"), "recorded with the result");
    }

    /**
     * A message every 200 ms: one kept in the publisher's batch until the next message, or until
     * the batch is full, would arrive 200 ms late or later, and the last ones only at the end:
     * every message, so the median shows it, and a busy test machine (CI builds two modules at
     * once) does not make half of them that late.
     */
    @Test
    void atFiveMessagesPerSecondNoMessageWaitsInTheBatchForTheNext() throws Exception {
        RunResult r;
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()))) {
            r = ShortRuns.runWithoutClosing(system, dir, 5, 100, 1, 1, Duration.ofMillis(400), Duration.ofSeconds(2));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(12, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertTrue(r.latenciesMs().latency().get("p50") < 100, r.latenciesMs().latency().toString());
    }

    @Test
    void aLocalBrokerLetsSubscribersOfLargeMessagesFallFurtherBehind() {
        assertEquals(Map.of(), RedisPubSubSystem.localBrokerArgs(256 * 1024));
        assertEquals(Map.of("client-output-buffer-limit", "pubsub 134217728 33554432 60"),
                RedisPubSubSystem.localBrokerArgs(1 << 20));
    }

    @Test
    void withAcksZeroNothingIsCountedAsAcknowledged() throws Exception {
        RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()).withAcks(RedisAcks.NONE));
        RunResult r;
        try (system) {
            r = ShortRuns.runWithoutClosing(system, dir, 500, 1024, 1, 1, Duration.ofMillis(500), Duration.ofSeconds(1));
            assertFalse(system.info().acknowledges());
        }
        assertEquals(750, r.counts().received());
        assertEquals(0, r.counts().acknowledged());
        assertEquals("0", r.durability().get("acks"));
        assertTrue(Files.notExists(dir.resolve("ack.hgrm")), "no ack histogram without acks");
    }

    @Test
    void aSubscriberThatLosesItsConnectionFailsTheRun() throws Exception {
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()))) {
            system.prepare(new RunPlan("msgbench-kill-test", 64, 1, 1));
            CompletableFuture<Throwable> error = new CompletableFuture<>();
            Subscriber subscriber = system.subscribe(0, new MessageSink() {
                @Override
                public void onMessage(byte[] data, int offset, int length, int lane) {
                }

                @Override
                public void onMessage(ByteBuffer data, int lane) {
                }

                @Override
                public void onError(Throwable e) {
                    error.complete(e);
                }
            });
            subscriber.awaitReady(Duration.ofSeconds(10));
            assertEquals("1", redisCli("CLIENT", "KILL", "TYPE", "pubsub"));
            Throwable e = error.get(10, TimeUnit.SECONDS);
            assertNotNull(e);
            assertEquals("a Redis subscriber lost its connection; what was published meanwhile is lost (Redis disconnects "
                    + "subscribers that fall behind by more than client-output-buffer-limit pubsub normal 0 0 0 "
                    + "slave 268435456 67108864 60 pubsub 33554432 8388608 60)", e.getMessage());
            subscriber.close();
        }
    }

    @Test
    void aMessageLargerThanASubscriberMayFallBehindIsRefusedBeforeSending() throws Exception {
        redisCli("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 1mb 0");
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()))) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-size-test", 2 << 20, 1, 1)));
            assertEquals("--size 2097152 B: Redis disconnects a subscriber as soon as 1048576 bytes wait for it "
                    + "(client-output-buffer-limit pubsub); raise it: --broker-prop client-output-buffer-limit=\"pubsub 0 0 0\" "
                    + "for a local broker", e.getMessage());
        } finally {
            redisCli("CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60");
        }
    }

    @Test
    void acksAllIsRefusedBecausePubSubKeepsNothingToReplicate() {
        RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()).withAcks(RedisAcks.REPLICAS));
        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-acks", 64, 1, 1)));
        assertEquals("--acks all has no equivalent in Redis pub/sub: it keeps no message, so no replica holds one; "
                + "use --acks 1, or --system redis-streams", e.getMessage());
    }

    @Test
    void anUnreachableServerIsReportedInOneLineWithinTenSeconds() throws Exception {
        long start = System.nanoTime();
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults("127.0.0.1:1"))) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-x", 64, 1, 1)));
            assertEquals("--url: no Redis server answered at 127.0.0.1:1 within 5 s; check the address, "
                    + "or omit the flag to start a local broker", e.getMessage());
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void aMalformedUrlNamesTheFlagAndTheForm() {
        UserError e = assertThrows(UserError.class, () -> new RedisPubSubSystem(RedisSettings.defaults("redis://"))
                .prepare(new RunPlan("msgbench-x", 64, 1, 1)));
        assertEquals("--url must be host:port or redis://host:port for Redis, got 'redis://'", e.getMessage());
    }

    static String redisCli(String... command) throws Exception {
        return dev.msgbench.redis.broker.RedisTesting.call(redis.port(1), command);
    }

    @Test
    void messagesOfManySizesArriveAtTheirOwnLengthsWithLettuceAndTheDirectClient() throws Exception {
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new RedisPubSubSystem(RedisSettings.defaults(redis.url())),
                dir.resolve("lettuce"), 500, "uniform:32B-4KiB", 2, 1));
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new RedisPubSubSystem(RedisSettings.defaults(redis.url())
                .withClient(RedisClientKind.DIRECT)), dir.resolve("direct"), 500, "uniform:32B-4KiB", 2, 1));
    }

    @Test
    void eachRecordKeyIsAChannelOfItsOwnReadWithPsubscribeByLettuceAndTheDirectClient() throws Exception {
        for (RedisClientKind client : RedisClientKind.values()) {
            Set<String> channels = ConcurrentHashMap.newKeySet();
            RedisClient spyClient = RedisClient.create(redis.url());
            RunResult r;
            try (StatefulRedisPubSubConnection<String, String> spy = spyClient.connectPubSub()) {
                spy.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String pattern, String channel, String message) {
                        channels.add(channel);
                    }
                });
                spy.sync().psubscribe("*");
                r = ShortRuns.withKeys(new RedisPubSubSystem(RedisSettings.defaults(redis.url()).withClient(client)),
                        dir.resolve(client.label()), 500, 128, RecordKeys.parse("random", 8), new Destinations(1, 2), 2, 1);
            } finally {
                spyClient.shutdown();
            }

            ShortRuns.assertEverySubscriptionGotEveryMessage(r, 2);
            // two streams' channels of eight keys each: <run>:0:k0 ... <run>:1:k7
            assertEquals(16, channels.size(), client + " " + channels);
            assertEquals(Set.of("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"),
                    channels.stream().map(c -> c.substring(c.lastIndexOf(':') + 1)).collect(Collectors.toSet()));
            assertEquals("random over 8: a channel per key under the stream's (<stream channel>:k<key>), read with "
                    + "PSUBSCRIBE <stream channel>:*", r.settings().get("recordKeys"));
        }
    }

    /**
     * 8 producer streams on 2 connections and 8 consumers (4 topics, 2 subscriptions) on 2: the
     * server sees exactly those 4 connections, each consumer connection subscribed to the channels
     * of its 4 consumers (2 streams each), and every consumer gets exactly its topic's messages.
     */
    @ParameterizedTest(name = "--redis-client {0}")
    @EnumSource(RedisClientKind.class)
    void producersAndConsumersSharingConnectionsGetExactlyTheirMessages(RedisClientKind client) throws Exception {
        RedisSharedConnectionsRun run = new RedisSharedConnectionsRun("msgbench-shared-" + client.label());
        List<String> clients;
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()).withClient(client))) {
            clients = run.run(system, redis.port(1), RecordKeys.NONE);
            Map<String, Object> settings = system.info().settings();
            assertEquals(2, settings.get("producerConnections"));
            assertEquals(2, settings.get("consumerConnections"));
            // 4 streams on each connection share its 4,096 messages awaiting replies
            assertEquals(4_096, settings.get("maxInFlightPerProducerConnection"));
            assertEquals(1_024, settings.get("maxInFlightPerProducer"));
        }
        assertEquals(List.of("msgbench-consumers-0 sub=8 psub=0", "msgbench-consumers-1 sub=8 psub=0",
                        "msgbench-producers-0 sub=0 psub=0", "msgbench-producers-1 sub=0 psub=0"),
                RedisSharedConnectionsRun.described(clients, "sub", "psub"), clients.toString());
        run.assertEveryConsumerGotExactlyItsMessages();
        assertEquals(List.of(), RedisSharedConnectionsRun.clientsLeft(redis.port(1)), "every shared connection closed once");
    }

    /** With record keys each shared consumer connection pattern-subscribes its streams, and routes by the pattern. */
    @ParameterizedTest(name = "--redis-client {0}")
    @EnumSource(RedisClientKind.class)
    void consumersSharingConnectionsWithRecordKeysGetExactlyTheirMessages(RedisClientKind client) throws Exception {
        RedisSharedConnectionsRun run = new RedisSharedConnectionsRun("msgbench-shared-keys-" + client.label());
        List<String> clients;
        try (RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults(redis.url()).withClient(client))) {
            clients = run.run(system, redis.port(1), RecordKeys.parse("round-robin", 3));
        }
        assertEquals(List.of("msgbench-consumers-0 sub=0 psub=8", "msgbench-consumers-1 sub=0 psub=8",
                        "msgbench-producers-0 sub=0 psub=0", "msgbench-producers-1 sub=0 psub=0"),
                RedisSharedConnectionsRun.described(clients, "sub", "psub"), clients.toString());
        run.assertEveryConsumerGotExactlyItsMessages();
    }
}
