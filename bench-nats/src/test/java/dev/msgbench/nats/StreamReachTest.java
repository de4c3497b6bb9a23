package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;

import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** The probe that proves a producer's subject reaches the stream, against a real nats-server. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StreamReachTest {

    private static LocalNatsServer server;

    @BeforeAll
    static void startServer() {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(true));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aStreamOnTheSubjectAnswersTheProbeWithoutStoringIt() throws Exception {
        try (Connection c = Nats.connect(server.url())) {
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("reach").subjects("reach.>")
                    .storageType(StorageType.Memory).build());
            try {
                StreamReach.await(c.jetStream(), "reach.0", "reach", Duration.ofSeconds(5));

                assertEquals(0, jsm.getStreamInfo("reach").getStreamState().getMsgCount());
            } finally {
                jsm.deleteStream("reach");
            }
        }
    }

    @Test
    void aSubjectNoStreamListensOnTimesOutNamingTheStream() throws Exception {
        try (Connection c = Nats.connect(server.url())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> StreamReach.await(c.jetStream(), "nobody.0", "absent", Duration.ofMillis(300)));

            assertTrue(e.getMessage().startsWith("stream absent did not answer on nobody.0 within"), e.getMessage());
        }
    }
}
