package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.api.StreamInfo;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** A local three-server JetStream cluster: the stream's leader by node number, and a killed leader back on its store. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class JetStreamFailoverTest {

    private static final String RUN = "msgbench-js-failover";

    @TempDir
    Path dir;

    @Test
    void theStreamLeaderIsNamedByItsNodeNumberAndAKilledLeaderComesBackWithTheStreamAndServesClients()
            throws Exception {
        try (LocalNatsServer cluster = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withNodes(3)
                .withLogDir(dir)).withJetStream(true));
             JetStreamSystem system = new JetStreamSystem(JetStreamSettings.defaults(cluster.url()).withReplicas(3),
                     cluster.monitor(1))) {
            system.prepare(new RunPlan(RUN, 128, 1, 1));
            try (Connection client = Nats.connect(cluster.url())) {
                client.jetStream().publish(new Subjects(RUN).stream(0), "before".getBytes(StandardCharsets.UTF_8));
            }
            int leader = system.leaderNode().orElseThrow();
            assertTrue(leader >= 1 && leader <= 3, "leader " + leader);

            cluster.killNode(leader);
            assertEquals("killed by signal 9 (SIGKILL)", cluster.exitDescription(leader));
            int next = Poll.value(() -> {
                OptionalInt now = system.leaderNode();
                return now.isPresent() && now.getAsInt() != leader ? now.getAsInt() : null;
            });
            assertTrue(next != leader);

            cluster.restartNode(leader, Duration.ofSeconds(60));

            assertNull(cluster.exitDescription(leader));
            String restarted = cluster.url().split(",")[leader - 1];
            try (Connection onlyRestarted = Nats.connect(restarted)) {
                StreamInfo info = onlyRestarted.jetStreamManagement().getStreamInfo(RUN);
                assertEquals(1, info.getStreamState().getMsgCount(), "the stream kept its message");
                onlyRestarted.jetStream().publish(new Subjects(RUN).stream(0), "after".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aServerGivenWithUrlHasNoNodeNumber() {
        assertEquals(OptionalInt.of(2), LocalNatsServer.nodeOfServerName("msgbench-nats-2"));
        assertEquals(OptionalInt.empty(), LocalNatsServer.nodeOfServerName("NDJWE4SOUJOJT2TY5Y2YQEOAHGAK5VIGXTGKWJSFHVCII4ITI3LBHSBE"));
        assertEquals(OptionalInt.empty(), LocalNatsServer.nodeOfServerName("msgbench-nats-x"));
        assertEquals(OptionalInt.empty(), LocalNatsServer.nodeOfServerName(null));
    }
}
