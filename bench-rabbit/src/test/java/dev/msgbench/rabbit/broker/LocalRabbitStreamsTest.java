package dev.msgbench.rabbit.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.testing.NeedsBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real rabbitmq-server with the stream plugin. Start times go to the surefire output file. */
@NeedsBroker
class LocalRabbitStreamsTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(90)
    void aNodeWithTheStreamPluginAnswersTheStreamProtocolOnItsOwnAdvertisedPortAndFreesIt() throws Exception {
        long started = System.nanoTime();
        LocalRabbitMq node = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withLogDir(dir.resolve("logs"))).withStreams(), dir);
        System.out.printf("node with the stream plugin ready in %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        int port = node.streamPort(1);
        try {
            assertEquals("rabbitmq-stream://127.0.0.1:" + port, node.url());
            assertEquals("rabbitmq-stream://127.0.0.1:" + port, node.streamUrl(1));
            assertTrue(StreamGreeting.answers("127.0.0.1", port, null));
            assertEquals(node.version(), StreamGreeting.serverProperties("127.0.0.1", port, null).get("version"));
            Map<String, String> conf = node.conf();
            assertEquals("127.0.0.1:" + port, conf.get("stream.listeners.tcp.1"));
            assertEquals("127.0.0.1", conf.get("stream.advertised_host"));
            assertEquals(Integer.toString(port), conf.get("stream.advertised_port"));
            assertTrue(node.amqpPort(1) != port, "AMQP keeps a port of its own");
        } finally {
            node.close();
        }
        FreePorts.requireFree(port);
        // logged before the listener accepts; the plugin list comes at the end of the boot, which may
        // still be under way when the stream port answers
        assertTrue(Files.readString(dir.resolve("logs").resolve("rabbitmq-1.log"))
                .contains("started Stream TCP listener on 127.0.0.1:" + port), "the node logs the plugin's listener");
    }

    @Test
    void theStreamPluginIsOffUnlessAskedForAndEnabledOnce() {
        assertFalse(RabbitBrokerSpec.defaults().streams());
        assertEquals(List.of("rabbitmq_stream"), RabbitBrokerSpec.defaults().withStreams().withStreams().plugins());
    }

    @Test
    void theStreamListenerIsMsgbenchsToChoose() {
        UserError e = assertThrows(UserError.class, () -> RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("stream.advertised_port", "5552"))));
        assertEquals("--broker-prop stream.advertised_port cannot be set: msgbench chooses it for every run "
                + "(ports, log files, cluster peers); remove it", e.getMessage());
    }
}
