package dev.msgbench.nats;

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
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** JetStream (R1, file storage) across a killed and restarted nats-server, which comes back on its store. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class JetStreamRideThroughTest {

    private static final int SIZE = 128;

    @TempDir
    Path dir;

    @Test
    void publishesDuringTheOutageEndAcknowledgedOrFailedOnceAndThePushConsumerResumesAfterTheRestart()
            throws Exception {
        rideThroughARestart(JsConsumerMode.PUSH);
    }

    @Test
    void aPullConsumerResumesAfterTheRestartToo() throws Exception {
        rideThroughARestart(JsConsumerMode.PULL);
    }

    private void rideThroughARestart(JsConsumerMode consumer) throws Exception {
        try (LocalNatsServer server = LocalNatsServer.start(
                NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir)).withJetStream(true));
             JetStreamSystem system = new JetStreamSystem(JetStreamSettings.defaults(server.url()).withConsumer(consumer),
                     server.monitor(1))) {
            system.prepare(new RunPlan("msgbench-js-ride", SIZE, 1, 1));
            RideThrough ride = new RideThrough();
            try (Subscriber subscriber = system.subscribe(0, ride);
                 Publisher publisher = system.publisher(0, ride)) {
                RideThrough.publish(publisher, SIZE, 0, 100);
                assertTrue(ride.awaitSettled(0, 100, 10));
                assertTrue(ride.awaitReceived(0, 100, 10));

                server.killNode(1);
                RideThrough.publish(publisher, SIZE, 100, 110);
                server.restartNode(1, Duration.ofSeconds(30));

                assertTrue(ride.awaitSettled(100, 110, 30), "each publish of the outage is acknowledged or failed");
                long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                assertTrue(ride.awaitSettled(resumed + 1, resumed + 101, 10));
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 10), "published after the restart");
                for (long s = 100; s < 110; s++) {
                    assertTrue(!ride.wasAcked(s) || ride.wasReceived(s), "acknowledged " + s + " arrives");
                }
            }
            assertEquals(List.of(), ride.subscriberErrors());
            assertEquals(List.of(), ride.settledTwice());
        }
    }
}
