package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.BacklogFigures;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.core.testing.Inspected;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import dev.msgbench.redis.broker.RedisTesting;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** Redis Streams against one real primary with one replica, shared by the tests of this class. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisStreamsSystemTest {

    private static LocalRedis redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() {
        redis = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults().withNodes(2)));
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void fourProducersAndTwoConsumersReceiveEveryMessageOnceAndTheKeysAreDeletedAfterwards() throws Exception {
        RunResult r;
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()), StreamSettings.defaults())) {
            r = ShortRuns.runWithoutClosing(system, dir, 1_000, 1024, 4, 2, Duration.ofMillis(500), Duration.ofSeconds(2));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(2_500, r.counts().sent());
        assertEquals(2_500, r.counts().received());
        assertEquals(2_500, r.counts().acknowledged());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("1", r.durability().get("acks"));
        assertEquals("~ 100000", r.durability().get("maxlen"));
        assertEquals("XACK per read (up to 100 entries per key), pipelined, not awaited", r.durability().get("consumerAck"));
        assertEquals(1, r.durability().get("replicas"));
        assertEquals("no", r.durability().get("appendonly"));
        assertEquals("everysec", r.durability().get("appendfsync"));
        for (String file : List.of("result.json", "latency.hgrm", "service.hgrm", "latency.hlog")) {
            assertTrue(Files.size(dir.resolve(file)) > 0, file);
        }
        assertEquals("0", RedisTesting.call(redis.port(1), "DBSIZE"), "the run's stream keys are deleted");
    }

    @Test
    void acksAllWaitsForTheReplicaAfterEachMessage() throws Exception {
        RunResult r;
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()).withAcks(RedisAcks.REPLICAS),
                StreamSettings.defaults())) {
            r = ShortRuns.runWithoutClosing(system, dir, 500, 512, 2, 1, Duration.ofMillis(500), Duration.ofSeconds(1));
        }
        assertEquals(750, r.counts().received(), r.warnings().toString());
        assertEquals(750, r.counts().acknowledged());
        assertEquals(0, r.counts().sendErrors());
        assertEquals("all", r.durability().get("acks"));
        assertEquals("the reply to WAIT 1 after each XADD (every replica has it)", r.durability().get("acknowledgement"));
        assertEquals("asynchronous (WAIT for all 1 after each message)", r.durability().get("replication"));
    }

    /**
     * XADD and WAIT every 200 ms: a pair kept in the publisher's batch until the next would arrive
     * 200 ms late, every one of them, so the median shows it. The interval is long because each
     * WAIT holds the connection's later commands: with the CPU taken by another module's tests (CI
     * builds two at once), a message every 20 ms reached a median of 55 ms.
     */
    @Test
    void withAcksAllAtFiveMessagesPerSecondNoMessageWaitsInTheBatchForTheNext() throws Exception {
        RunResult r;
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()).withAcks(RedisAcks.REPLICAS),
                StreamSettings.defaults())) {
            r = ShortRuns.runWithoutClosing(system, dir, 5, 100, 1, 1, Duration.ofMillis(400), Duration.ofSeconds(2));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(12, r.counts().received());
        assertEquals(12, r.counts().acknowledged());
        assertTrue(r.latenciesMs().latency().get("p50") < 100, r.latenciesMs().latency().toString());
        assertTrue(r.latenciesMs().ack().get("p50") < 100, r.latenciesMs().ack().toString());
    }

    /**
     * Five permits and a batch of up to 64 commands: unless the batch goes out before the
     * publisher waits for a permit, the replies that would free one are never asked for.
     */
    @Test
    @Timeout(20)
    void aPublisherOutOfInFlightPermitsSendsItsBatchBeforeWaitingForOne() throws Exception {
        RedisSettings fivePermits = new RedisSettings(redis.url(), RedisAcks.SERVER, null, null, 5, null);
        try (RedisStreamsSystem system = new RedisStreamsSystem(fivePermits, StreamSettings.defaults())) {
            system.prepare(new RunPlan("msgbench-permits-test", 64, 1, 0));
            CountDownLatch unacknowledged = new CountDownLatch(1_000);
            try (Publisher publisher = system.publisher(0, onEveryAck(unacknowledged::countDown))) {
                byte[] message = new byte[64];
                // without the batch sent first, the publish that waits for the sixth permit never returns
                for (int i = 0; i < 1_000; i++) {
                    publisher.publish(message, i, i);
                }
                publisher.endOfBurst();
                assertTrue(unacknowledged.await(10, TimeUnit.SECONDS),
                        unacknowledged.getCount() + " of 1,000 XADDs unacknowledged after 10 s");
                assertEquals("1000", RedisTesting.call(redis.port(1), "XLEN", "msgbench-permits-test:0"));
            }
        }
    }

    private static AckListener countingAcks(AtomicLong acked) {
        return onEveryAck(acked::incrementAndGet);
    }

    private static AckListener onEveryAck(Runnable action) {
        return new AckListener() {
            @Override
            public void acked(long sequence, long intendedSendNanos) {
                action.run();
            }

            @Override
            public void failed(long sequence, long intendedSendNanos, Throwable error) {
                throw new AssertionError(error);
            }
        };
    }

    private static RedisSettings direct(RedisAcks acks) {
        return RedisSettings.defaults(redis.url()).withAcks(acks).withClient(RedisClientKind.DIRECT);
    }

    @Test
    void directProducersWriteXaddThemselvesAndEveryMessageArrivesOnce() throws Exception {
        RunResult r;
        try (RedisStreamsSystem system = new RedisStreamsSystem(direct(RedisAcks.SERVER), StreamSettings.defaults())) {
            r = ShortRuns.runWithoutClosing(system, dir, 1_000, 1024, 4, 2, Duration.ofMillis(500), Duration.ofSeconds(2));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(2_500, r.counts().received());
        assertEquals(2_500, r.counts().acknowledged());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().duplicated());
        assertEquals(0, r.counts().reordered());
        assertEquals("direct", r.settings().get("client"));
        assertTrue(r.versions().get("client").startsWith("msgbench direct RESP client (producers), lettuce"),
                r.versions().toString());
        assertTrue(r.latenciesMs().ack().get("p50") > 0, "acknowledgement latency comes from the matched replies");
    }

    @Test
    void directProducersBackToBackAreAnsweredInOrderAndTrimmed() throws Exception {
        RunResult r = ShortRuns.throughput(new RedisStreamsSystem(direct(RedisAcks.SERVER), new StreamSettings(1_000_000, 100,
                null)), dir, 200_000, 100, 1, 1);
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(200_000, r.counts().received());
        assertEquals(200_000, r.counts().acknowledged());
        assertEquals(0, r.counts().lost());
        assertEquals(0, r.counts().reordered());
    }

    /** The consumer joins the group created before the first message, so it reads the whole backlog. */
    @Test
    void aConsumerHeldBackUntilABacklogReadsItAllAndItsDrainRateIsReported() throws Exception {
        RunResult r = ShortRuns.withBacklog(new RedisStreamsSystem(RedisSettings.defaults(redis.url()),
                StreamSettings.defaults()), dir, 5_000, 100, Duration.ofSeconds(2), Backlog.parse("4000"));

        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(10_000, r.counts().sent());
        assertEquals(10_000, r.counts().received());
        assertEquals(0, r.counts().lost() + r.counts().duplicated());
        BacklogFigures b = r.backlog();
        assertTrue(b.reached() && b.drained(), b.toString());
        assertTrue(b.deliveriesWaiting() >= 4_000, b.toString());
        assertTrue(b.drainRateMsgsPerSec() > 5_000, b.toString());
    }

    /** A direct producer outruns the consumer by far more than 1,000 entries: the trimmed ones are lost, and the warning says why. */
    @Test
    void entriesTrimmedBeforeTheyWereReadAreLostAndTheWarningNamesMaxlen() throws Exception {
        RunResult r = ShortRuns.throughput(new RedisStreamsSystem(direct(RedisAcks.SERVER), new StreamSettings(1_000, 100,
                null)), dir, 200_000, 100, 1, 1);

        assertEquals(200_000, r.counts().acknowledged());
        assertTrue(r.counts().lost() > 0 && r.counts().received() > 0, r.counts().lost() + " lost, " + r.counts().received() + " received");
        assertEquals(200_000, r.counts().received() + r.counts().lost());
        assertTrue(r.warnings().contains(String.format(java.util.Locale.US, "%,d messages lost; each stream keeps about "
                + "1000 entries (MAXLEN ~), and those trimmed before a consumer read them are lost: raise --maxlen above "
                + "what consumers fall behind by", r.counts().lost())), r.warnings().toString());
    }

    @Test
    void directProducersWithAcksAllAreAcknowledgedByWaitAfterEachXadd() throws Exception {
        RunResult r = ShortRuns.throughput(new RedisStreamsSystem(direct(RedisAcks.REPLICAS), StreamSettings.defaults()), dir,
                5_000, 512, 2, 1);
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(5_000, r.counts().received());
        assertEquals(5_000, r.counts().acknowledged());
        assertEquals(0, r.counts().sendErrors());
        assertEquals("the reply to WAIT 1 after each XADD (every replica has it)", r.durability().get("acknowledgement"));
    }

    /**
     * With WAIT each message has two replies: a refused XADD (WRONGTYPE, the key made a string)
     * still takes its WAIT's reply with it, so the messages after it are matched to their own.
     */
    @Test
    void aRefusedXaddFailsItsOwnMessageOnlyAlsoWithWait() throws Exception {
        for (RedisAcks acks : List.of(RedisAcks.SERVER, RedisAcks.REPLICAS)) {
            try (RedisStreamsSystem system = new RedisStreamsSystem(direct(acks), StreamSettings.defaults())) {
                system.prepare(new RunPlan("msgbench-refused-" + acks, 64, 1, 0));
                String key = "msgbench-refused-" + acks + ":0";
                List<Long> acked = new CopyOnWriteArrayList<>();
                List<String> failed = new CopyOnWriteArrayList<>();
                AckListener listener = new AckListener() {
                    @Override
                    public void acked(long sequence, long intendedSendNanos) {
                        acked.add(sequence);
                    }

                    @Override
                    public void failed(long sequence, long intendedSendNanos, Throwable error) {
                        failed.add(sequence + " " + error.getMessage());
                    }
                };
                try (Publisher publisher = system.publisher(0, listener)) {
                    byte[] message = new byte[64];
                    for (int i = 0; i < 10; i++) {
                        publisher.publish(message, i, i);
                    }
                    publisher.flush();
                    RedisTesting.call(redis.port(1), "DEL", key);
                    RedisTesting.call(redis.port(1), "SET", key, "not a stream");
                    for (int i = 10; i < 13; i++) {
                        publisher.publish(message, i, i);
                    }
                    publisher.flush();
                    RedisTesting.call(redis.port(1), "DEL", key);
                    for (int i = 13; i < 20; i++) {
                        publisher.publish(message, i, i);
                    }
                    publisher.flush();
                }
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 13L, 14L, 15L, 16L, 17L, 18L, 19L), acked,
                        acks.toString());
                assertEquals(3, failed.size(), failed.toString());
                for (int i = 0; i < 3; i++) {
                    assertTrue(failed.get(i).startsWith((10 + i) + " Redis refused XADD to " + key + ": WRONGTYPE"),
                            failed.toString());
                }
            }
        }
    }

    @Test
    void everyXaddTrimsTheStreamToAboutMaxlenEntries() throws Exception {
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()), new StreamSettings(100, 10,
                null))) {
            system.prepare(new RunPlan("msgbench-trim-test", 64, 1, 0));
            AtomicLong acked = new AtomicLong();
            try (Publisher publisher = system.publisher(0, countingAcks(acked))) {
                byte[] message = new byte[64];
                for (int i = 0; i < 2_000; i++) {
                    publisher.publish(message, i, i);
                }
                publisher.endOfBurst(); // as the engine does before it waits: batched XADDs go out
                while (acked.get() < 2_000) {
                    Thread.sleep(5);
                }
            }
            long length = Long.parseLong(RedisTesting.call(redis.port(1), "XLEN", "msgbench-trim-test:0"));
            assertTrue(length >= 100 && length < 300, "XLEN " + length);
        }
        assertEquals("0", RedisTesting.call(redis.port(1), "EXISTS", "msgbench-trim-test:0"));
    }

    @Test
    void aMessageLongerThanTheServerTakesIsRefusedBeforeSendingNamingTheSetting() throws Exception {
        RedisTesting.call(redis.port(1), "CONFIG", "SET", "proto-max-bulk-len", "1mb");
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()), StreamSettings.defaults())) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-size", 3 << 20, 1, 1)));
            assertEquals("--size 3145728 B: this Redis accepts strings of at most 1048576 bytes (proto-max-bulk-len); "
                    + "raise it: --broker-prop proto-max-bulk-len=6mb for a local broker, CONFIG SET proto-max-bulk-len 6mb "
                    + "on a running one", e.getMessage());
        } finally {
            RedisTesting.call(redis.port(1), "CONFIG", "SET", "proto-max-bulk-len", "512mb");
        }
    }

    @Test
    void aReplicaGivenAsTheUrlIsRefusedBecauseItTakesNoWrites() throws Exception {
        String replica = "127.0.0.1:" + redis.port(2);
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(replica), StreamSettings.defaults())) {
            UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-replica", 64, 1, 1)));
            assertEquals("--url: the Redis at " + replica + " is a replica (role:slave); point --url at its primary",
                    e.getMessage());
        }
    }

    @Test
    void messagesOfManySizesArriveAtTheirOwnLengths() throws Exception {
        ShortRuns.assertEveryByteArrived(ShortRuns.withSizes(new RedisStreamsSystem(RedisSettings.defaults(redis.url()),
                StreamSettings.defaults()), dir, 500, "weights:32B=1,100B=5,4KiB=2", 2, 1));
    }

    @Test
    void eachEntryCarriesItsRecordKeyInAFieldWithLettuceAndTheDirectClient() throws Exception {
        for (RedisClientKind client : RedisClientKind.values()) {
            List<String> entryKeys = new CopyOnWriteArrayList<>();
            RedisClient reader = RedisClient.create(redis.url());
            RunResult r;
            try (StatefulRedisConnection<String, String> connection = reader.connect()) {
                // stream 0's entries, read before the run deletes its keys
                Inspected system = new Inspected(new RedisStreamsSystem(RedisSettings.defaults(redis.url())
                        .withClient(client), StreamSettings.defaults()), Inspected.Look.NONE,
                        plan -> connection.sync().xrange(plan.topicName(0) + ":0", Range.create("-", "+"))
                                .forEach(entry -> entryKeys.add(String.valueOf(entry.getBody().get("k")))));
                r = ShortRuns.withKeys(system, dir.resolve(client.label()), 500, 128, RecordKeys.parse("round-robin", 5),
                        new Destinations(1, 2), 2, 1);
            } finally {
                reader.shutdown();
            }

            ShortRuns.assertEverySubscriptionGotEveryMessage(r, 2);
            // round-robin from k0: the entries of stream 0 carry k0, k1, ... k4 in turn
            assertEquals(r.counts().sent() / 2, entryKeys.size(), client.label());
            for (int i = 0; i < entryKeys.size(); i++) {
                assertEquals("k" + i % 5, entryKeys.get(i), client + " entry " + i);
            }
            assertEquals("round-robin over 5: a field of each entry (k <key>, before m <message>); Redis Streams route "
                    + "nothing by key, so the key costs only its bytes", r.settings().get("recordKeys"));
        }
    }

    /**
     * 8 producer streams on 2 connections and 8 consumers (4 topics, 2 subscriptions: a group each)
     * on 2, each reading the stream keys of its 4 consumers with one XREADGROUP: the server sees
     * exactly those 4 connections, and every consumer gets exactly its topic's entries. With --acks
     * all each XADD's WAIT follows it on the shared connection, and each stream settles its own.
     */
    @ParameterizedTest(name = "--redis-client {0} --acks {1}")
    @CsvSource({"LETTUCE,SERVER", "DIRECT,SERVER", "LETTUCE,REPLICAS", "DIRECT,REPLICAS"})
    void producersAndConsumersSharingConnectionsGetExactlyTheirMessages(RedisClientKind client, RedisAcks acks)
            throws Exception {
        RedisSharedConnectionsRun run = new RedisSharedConnectionsRun("msgbench-shared-streams-" + client.label() + "-" + acks);
        List<String> clients;
        try (RedisStreamsSystem system = new RedisStreamsSystem(RedisSettings.defaults(redis.url()).withClient(client)
                .withAcks(acks), StreamSettings.defaults())) {
            clients = run.run(system, redis.port(1), RecordKeys.NONE);
            assertEquals(2, system.info().settings().get("consumerConnections"));
        }
        assertEquals(List.of("msgbench-consumers-0", "msgbench-consumers-1", "msgbench-producers-0",
                "msgbench-producers-1"), RedisSharedConnectionsRun.described(clients), clients.toString());
        for (String line : clients) {
            // a consumer connection reads (or acknowledges what it read), a producer's adds (and waits)
            String cmd = RedisSharedConnectionsRun.field(line, "cmd");
            assertTrue(RedisSharedConnectionsRun.field(line, "name").startsWith("msgbench-consumers")
                    ? cmd.equals("xreadgroup") || cmd.equals("xack") : cmd.equals("xadd") || cmd.equals("wait"), line);
        }
        run.assertEveryConsumerGotExactlyItsMessages();
        assertEquals(List.of(), RedisSharedConnectionsRun.clientsLeft(redis.port(1)), "every shared connection closed once");
    }
}
