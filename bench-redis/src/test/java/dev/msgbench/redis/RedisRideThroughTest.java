package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.broker.NodeExit;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.RideThrough;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;

/**
 * Lettuce across a killed and restarted redis-server (which comes back empty): subscribers ride
 * through, publishes while it is down fail at once, what is published after the restart arrives.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisRideThroughTest {

    private static final int SIZE = 128;

    @Test
    void aPubSubSubscriberRidesThroughARestartedServerAndPublishesWhileItIsDownFailAtOnce() throws Exception {
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.defaults());
             RedisPubSubSystem system = new RedisPubSubSystem(settings(redis))) {
            rideThrough(redis, system, "msgbench-ride-pubsub");
        }
    }

    @Test
    void aStreamsConsumerRidesThroughARestartedServerAndReadsWhatIsAddedAfterIt() throws Exception {
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.defaults());
             RedisStreamsSystem system = new RedisStreamsSystem(settings(redis), StreamSettings.defaults())) {
            rideThrough(redis, system, "msgbench-ride-streams");
        }
    }

    private static RedisSettings settings(LocalRedis redis) {
        return RedisSettings.defaults(redis.url()).withServerExit(NodeExit.of(redis, 1));
    }

    private static void rideThrough(LocalRedis redis, MessagingSystem system, String run) throws Exception {
        system.prepare(new RunPlan(run, SIZE, 1, 1));
        RideThrough ride = new RideThrough();
        try (Subscriber subscriber = system.subscribe(0, ride)) {
            subscriber.awaitReady(Duration.ofSeconds(10));
            try (Publisher publisher = system.publisher(0, ride)) {
                RideThrough.publish(publisher, SIZE, 0, 100);
                assertTrue(ride.awaitReceived(0, 100, 10));
                assertTrue(ride.awaitSettled(0, 100, 10));

                redis.killNode(1);
                RideThrough.publish(publisher, SIZE, 100, 110);
                assertTrue(ride.awaitSettled(100, 110, 10), "publishes while the server is down end at once");
                assertTrue(ride.failed().containsAll(Set.of(100L, 105L, 109L)), ride.failed().toString());

                redis.restartNode(1, Duration.ofSeconds(20));

                long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 10), "published after the restart");
                assertTrue(ride.awaitSettled(resumed + 1, resumed + 101, 10));
                assertTrue(ride.wasAcked(resumed + 100));
            }
            assertEquals(List.of(), ride.subscriberErrors());
            assertEquals(List.of(), ride.settledTwice());
        }
    }
}
