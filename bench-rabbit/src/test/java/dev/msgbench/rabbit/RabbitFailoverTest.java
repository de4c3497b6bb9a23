package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One local node killed under a publisher awaiting confirms, then restarted on its data. */
@NeedsBroker
class RabbitFailoverTest {

    private static final int UNCONFIRMED = 5;

    @TempDir
    Path dir;

    @Test
    @Timeout(150)
    void confirmsOutstandingAtAKillAreReportedFailedAndTheRestartedNodeKeepsItsDurableQueue() throws Exception {
        try (LocalRabbitMq broker = LocalRabbitMq.start(RabbitBrokerSpec.defaults().withLogDir(dir))) {
            RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url()).withAcks(Acks.BROKER)
                    .withQueueType(QueueType.DURABLE).withReplicas(1), broker);
            Failures failures = new Failures(UNCONFIRMED);
            try {
                system.prepare(new RunPlan("msgbench-rabbit-failover", 128, 1, 1));
                assertEquals(OptionalInt.of(1), system.leaderNode());
                Publisher publisher = system.publisher(0, failures);
                // frozen, the node confirms nothing: every publish below is outstanding at the kill
                broker.signal(1, Signal.STOP);
                for (int sequence = 0; sequence < UNCONFIRMED; sequence++) {
                    publisher.publish(new byte[128], sequence, sequence);
                }
                broker.killNode(1);

                assertTrue(failures.all.await(60, TimeUnit.SECONDS), "every outstanding confirm is reported failed");
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L), failures.sequences);
                assertEquals("killed by signal 9 (SIGKILL)", broker.exitDescription(1));
                failures.expectOneMore();
                publisher.publish(new byte[128], UNCONFIRMED, UNCONFIRMED);
                assertTrue(failures.all.await(10, TimeUnit.SECONDS), "a publish while the node is down fails, no throw");
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), failures.sequences);
                publisher.close();

                broker.restartNode(1, Duration.ofSeconds(90));

                assertNull(broker.exitDescription(1));
                // on a busy machine a restarted node can answer AMQP while a durable queue is still
                // "down or inaccessible" (rabbitmq-server#2454); asked until it answers, or fails why
                Poll.valueWithin(Duration.ofSeconds(30), () -> {
                    try (Connection connection = factory(broker.url()).newConnection("msgbench-test")) {
                        Channel channel = connection.createChannel();
                        // passive: fails unless the durable queue survived the kill
                        channel.queueDeclarePassive(system.queueOf(0));
                        channel.basicPublish("", system.queueOf(0), null, new byte[128]);
                        return true;
                    }
                });
            } finally {
                system.close();
            }
        }
    }

    private static ConnectionFactory factory(String url) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(new URI(url));
        return factory;
    }

    private static final class Failures implements AckListener {
        final List<Long> sequences = new CopyOnWriteArrayList<>();
        volatile CountDownLatch all;

        Failures(int expected) {
            all = new CountDownLatch(expected);
        }

        void expectOneMore() {
            all = new CountDownLatch(1);
        }

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            throw new AssertionError("message " + sequence + " confirmed by a frozen node");
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            sequences.add(sequence);
            all.countDown();
        }
    }
}
