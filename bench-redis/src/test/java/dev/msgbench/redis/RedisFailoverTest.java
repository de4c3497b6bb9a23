package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.broker.NodeExit;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;

/** A local redis-server killed under its subscribers: the message names the kill, not a subscriber cut off. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisFailoverTest {

    private static final String KILLED = "a Redis subscriber lost its connection; what was published meanwhile is lost "
            + "(the server went away: redis-server node 1 killed by signal 9 (SIGKILL))";

    @Test
    void aSubscriberOfAKilledServerSaysTheServerWasKilledWithEitherClient() throws Exception {
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.defaults())) {
            for (RedisClientKind client : RedisClientKind.values()) {
                RedisSettings settings = RedisSettings.defaults(redis.url()).withClient(client)
                        .withServerExit(NodeExit.of(redis, 1)).withReconnectFor(Duration.ofSeconds(1));
                try (RedisPubSubSystem system = new RedisPubSubSystem(settings)) {
                    system.prepare(new RunPlan("msgbench-killed-" + client.label(), 64, 1, 1));
                    ErrorSink sink = new ErrorSink();
                    Subscriber subscriber = system.subscribe(0, sink);
                    subscriber.awaitReady(Duration.ofSeconds(10));

                    redis.killNode(1);

                    String message = sink.error.get(10, TimeUnit.SECONDS).getMessage();
                    assertEquals(KILLED, firstLine(message), client.label());
                    assertEquals(client == RedisClientKind.DIRECT, message.endsWith("; the direct client does not "
                            + "reconnect; --redis-client lettuce rides through a restarted server"), message);
                    subscriber.close();
                    redis.restartNode(1, Duration.ofSeconds(20));
                }
            }
        }
    }

    /** The direct client adds the socket's own words after a colon. */
    private static String firstLine(String message) {
        int colon = message.indexOf("SIGKILL))");
        return colon < 0 ? message : message.substring(0, colon + "SIGKILL))".length());
    }

    private static final class ErrorSink implements MessageSink {
        final CompletableFuture<Throwable> error = new CompletableFuture<>();

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
    }
}
