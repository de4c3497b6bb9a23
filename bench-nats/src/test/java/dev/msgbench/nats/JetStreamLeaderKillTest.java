package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.core.testing.RideThrough;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * An R3 stream on a three-server cluster whose leader is killed: the other two elect a new
 * leader and the run goes on without a restart; nothing acknowledged is lost.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@NeedsBroker
class JetStreamLeaderKillTest {

    private static final int SIZE = 128;

    @TempDir
    Path dir;

    @Test
    void killingTheStreamLeaderLosesNoAcknowledgedMessageAndTheConsumerGoesOnWithoutARestart() throws Exception {
        try (LocalNatsServer cluster = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withNodes(3)
                .withLogDir(dir)).withJetStream(true));
             JetStreamSystem system = new JetStreamSystem(JetStreamSettings.defaults(cluster.url()).withReplicas(3)
                     .withAcks(Acks.ALL), cluster.monitor(1))) {
            system.prepare(new RunPlan("msgbench-js-leader", SIZE, 1, 1));
            RideThrough ride = new RideThrough();
            try (Subscriber subscriber = system.subscribe(0, ride);
                 Publisher publisher = system.publisher(0, ride)) {
                RideThrough.publish(publisher, SIZE, 0, 100);
                assertTrue(ride.awaitSettled(0, 100, 20));
                assertTrue(ride.awaitReceived(0, 100, 20));
                int leader = Poll.value(() -> system.leaderNode().isPresent() ? system.leaderNode().getAsInt() : null);

                cluster.killNode(leader);
                RideThrough.publish(publisher, SIZE, 100, 110);
                assertTrue(ride.awaitSettled(100, 110, 60), "each publish of the election is acknowledged or failed");
                long resumed = ride.publishUntilOneArrives(publisher, SIZE, 1_000);
                RideThrough.publish(publisher, SIZE, resumed + 1, resumed + 101);
                assertTrue(ride.awaitSettled(resumed + 1, resumed + 101, 20));
                assertTrue(ride.awaitReceived(resumed + 1, resumed + 101, 20), "published after the election");

                OptionalInt newLeader = system.leaderNode();
                assertTrue(newLeader.isPresent(), "a new leader leads the stream");
                assertNotEquals(leader, newLeader.getAsInt());
                for (long s = 0; s < 110; s++) {
                    if (ride.wasAcked(s)) {
                        final long sequence = s;
                        assertTrue(ride.awaitReceived(sequence, sequence + 1, 20), "acknowledged " + s + " arrives");
                    }
                }
                for (long s : ride.failed()) {
                    assertTrue(s < resumed, "only publishes before the new leader served may fail, not " + s);
                }
                // as a run's kill does after its restart-after: deleting the stream at close asks the
                // meta leader, which a busy machine's two survivors may not have settled on yet
                cluster.restartNode(leader, Duration.ofSeconds(60));
            }
            assertEquals(List.of(), ride.subscriberErrors());
            assertEquals(List.of(), ride.settledTwice());
        }
    }
}
