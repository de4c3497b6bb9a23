package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.core.wire.FrameBuffer;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import dev.msgbench.redis.resp.RespConnection;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Producers and subscribers that speak RESP themselves ({@code --redis-client direct}), against
 * one real redis-server that also has a user with a password.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisDirectClientTest {

    private static LocalRedis redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() {
        redis = LocalRedis.start(RedisBrokerSpec.defaults());
        RedisClient client = RedisClient.create(redis.url());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().aclSetuser("alice", AclSetuserArgs.Builder.on().addPassword("s3cret-pw").allCommands().allChannels());
        } finally {
            client.shutdown();
        }
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    private static RedisSettings direct(String url) {
        return RedisSettings.defaults(url).withClient(RedisClientKind.DIRECT);
    }

    @Test
    void pacedMessagesArriveOnceInOrderAndEachIsAcknowledgedByItsReply() throws Exception {
        RunResult r = ShortRuns.run(new RedisPubSubSystem(direct(redis.url())), dir, 1_000, 256, 2, 3,
                Duration.ofMillis(500), Duration.ofSeconds(2));

        assertEquals(RunResult.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(2_500, r.sent());
        assertEquals(2_500, r.received());
        assertEquals(2_500, r.acknowledged());
        assertEquals(0, r.lost());
        assertEquals(0, r.duplicated());
        assertEquals(0, r.reordered());
        assertEquals("direct", r.settings().get("client"));
        assertEquals("msgbench direct RESP client", r.versions().get("client"));
        assertTrue(r.ackMs().get("p50") > 0, "acknowledgement latency comes from the matched replies");
    }

    @Test
    void backToBackCommandsAcrossBufferAndInFlightLimitsAreAllAnsweredInOrder() throws Exception {
        // 200,000 x 100 B: the 64 KiB buffer fills about 450 times and the 4,096 in-flight permits
        // run out again and again, so the producer waits for replies while commands are buffered
        RunResult r = ShortRuns.throughput(new RedisPubSubSystem(direct(redis.url())), dir, 200_000, 100, 1, 1);

        assertEquals(RunResult.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(200_000, r.received());
        assertEquals(200_000, r.acknowledged());
        assertEquals(0, r.lost());
        assertEquals(0, r.reordered());
    }

    @Test
    void messagesLargerThanTheBufferGoOutWhole() throws Exception {
        int size = FrameBuffer.CAPACITY * 2 + 5;
        RunResult r = ShortRuns.throughput(new RedisPubSubSystem(direct(redis.url())), dir, 200, size, 1, 1);

        assertEquals(RunResult.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(200, r.received());
        assertEquals(200, r.acknowledged());
    }

    @Test
    void aPublishThatReachesNoSubscriberIsAFailedSendAsWithLettuce() throws Exception {
        RunResult r = ShortRuns.throughput(new RedisPubSubSystem(direct(redis.url())), dir, 1_000, 100, 1, 0);

        assertEquals(1_000, r.sent());
        assertEquals(1_000, r.sendErrors());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("reached no subscriber")), r.warnings().toString());
    }

    @Test
    void aSubscriberKeepsUpWithBackToBackPublishingOfLargeAndSmallMessages() throws Exception {
        // the server disconnects a subscriber 32 MiB behind: 20,000 x 4 KiB is 80 MiB published back to back
        RunResult r = ShortRuns.throughput(new RedisPubSubSystem(direct(redis.url())), dir, 20_000, 4096, 2, 2);

        assertEquals(RunResult.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(20_000, r.received());
        assertEquals(0, r.lost());
        assertEquals(0, r.reordered());
    }

    @Test
    void aUserAndPasswordInTheUrlAuthenticateTheProducer() throws Exception {
        String url = redis.url().replace("redis://", "redis://alice:s3cret-pw@");
        try (RespConnection c = DirectConnections.open(url, "msgbench-producer-0", Duration.ofSeconds(5))) {
            assertTrue(c != null);
        }
    }

    @Test
    void aWrongPasswordIsOneLineWithTheServersReasonAndNoSecret() {
        String url = redis.url().replace("redis://", "redis://alice:wrong-pw@");
        UserError e = assertThrows(UserError.class,
                () -> DirectConnections.open(url, "msgbench-producer-0", Duration.ofSeconds(5)));
        assertTrue(e.getMessage().startsWith("--url: the Redis server at 127.0.0.1:"), e.getMessage());
        assertTrue(e.getMessage().contains("WRONGPASS"), e.getMessage());
        assertFalse(e.getMessage().contains("wrong-pw"), e.getMessage());
    }

    @Test
    void anUnreachableServerIsAOneLineError() {
        UserError e = assertThrows(UserError.class,
                () -> DirectConnections.open("127.0.0.1:1", "p", Duration.ofSeconds(2)));
        assertTrue(e.getMessage().startsWith("--url: no Redis server answered at 127.0.0.1:1 within 2 s"), e.getMessage());
    }
}
