package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** Core NATS through jnats across a killed and restarted nats-server: the run goes on and measures. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsRideThroughTest {

    private static final int SIZE = 128;
    private static final int LARGE = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void aSubscriberAndAPublisherRideThroughAKilledServerAndWhatIsPublishedAfterItsRestartArrives() throws Exception {
        try (LocalNatsServer server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir)));
             NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()))) {
            system.prepare(new RunPlan("msgbench-nats-ride", SIZE, 1, 1));
            RideThrough ride = new RideThrough();
            try (Subscriber subscriber = system.subscribe(0, ride);
                 Publisher publisher = system.publisher(0, ride)) {
                RideThrough.publish(publisher, SIZE, 0, 100);
                assertTrue(ride.awaitReceived(0, 100, 10));

                server.killNode(1);
                // held in jnats' reconnect buffer: sent after the restart, not thrown
                RideThrough.publish(publisher, SIZE, 100, 200);
                server.restartNode(1, Duration.ofSeconds(30));

                long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 10), "published after the restart");
                publisher.flush();
                assertEquals(List.of(), ride.subscriberErrors());
                assertEquals(List.of(), ride.sendErrors());
            }
        }
    }

    @Test
    void publishesBeyondTheReconnectBufferAreReportedFailedNotThrownAndSendingResumesAfterTheRestart()
            throws Exception {
        try (LocalNatsServer server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir)));
             NatsSystem system = new NatsSystem(NatsSettings.defaults(server.url()))) {
            system.prepare(new RunPlan("msgbench-nats-ride-full", LARGE, 1, 1));
            RideThrough ride = new RideThrough();
            try (Subscriber subscriber = system.subscribe(0, ride);
                 Publisher publisher = system.publisher(0, ride)) {
                server.killNode(1);
                // 8 MB of reconnect buffer hold about 128 of these; 1,000 are 64 MB
                long sequence = 0;
                while (ride.failed().isEmpty() && sequence < 1_000) {
                    publisher.publish(RideThrough.message(LARGE, sequence), sequence, sequence);
                    sequence++;
                }
                assertFalse(ride.failed().isEmpty(), "a publish beyond the reconnect buffer is reported failed");
                assertTrue(ride.sendErrors().get(0).getMessage().startsWith(
                        "Unable to queue any more messages during reconnect"), ride.sendErrors().get(0).getMessage());

                server.restartNode(1, Duration.ofSeconds(30));

                long resumed = ride.publishUntilOneArrives(publisher, SIZE, sequence);
                RideThrough.publish(publisher, LARGE, resumed + 1, resumed + 11);
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 11, 10), "published after the restart");
                assertEquals(List.of(), ride.subscriberErrors());
            }
        }
    }
}
