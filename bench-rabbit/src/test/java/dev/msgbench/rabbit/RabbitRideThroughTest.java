package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.RideThrough;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;

/**
 * RabbitMQ with its default settings (no confirms) across a killed and restarted node: a publish
 * whose socket the kill reset loses its message instead of ending the stream, and the consumer
 * comes back with the connection instead of failing the run.
 */
@NeedsBroker
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RabbitRideThroughTest {

    private static final int SIZE = 128;

    @TempDir
    Path dir;

    @Test
    void aSubscriberAndAPublisherWithoutConfirmsRideThroughAKilledNode() throws Exception {
        try (LocalRabbitMq broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults().withLogDir(dir)))) {
            RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url()));
            try {
                system.prepare(new RunPlan("msgbench-rabbit-ride", SIZE, 1, 1));
                RideThrough ride = new RideThrough();
                try (Subscriber subscriber = system.subscribe(0, ride);
                     Publisher publisher = system.publisher(0, ride)) {
                    subscriber.awaitReady(Duration.ofSeconds(30));
                    RideThrough.publish(publisher, SIZE, 0, 100);
                    assertTrue(ride.awaitReceived(0, 100, 10));

                    broker.killNode(1);
                    // into a reset socket, then into a channel the client knows is closed: lost, not thrown
                    RideThrough.publish(publisher, SIZE, 100, 200);
                    broker.restartNode(1, Duration.ofSeconds(90));

                    long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                    RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                    assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 10), "published after the restart");
                    assertEquals(List.of(), ride.subscriberErrors());
                }
            } finally {
                system.close();
            }
        }
    }
}
