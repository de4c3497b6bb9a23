package dev.msgbench.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.security.ClientSecurity;

/** The admin calls against a stand-in for a broker's web service: no Pulsar. */
class PulsarAdminTest {

    private HttpServer broker;

    @BeforeEach
    void standInForTheSecondBroker() throws Exception {
        broker = HttpServer.create(new InetSocketAddress(FreePorts.LOOPBACK, 0), 0);
        broker.createContext("/lookup/v2/topic/persistent/public/default/t1", exchange -> {
            byte[] body = "{\"brokerUrl\":\"pulsar://127.0.0.1:6652\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        broker.start();
    }

    @AfterEach
    void stop() {
        broker.stop(0);
    }

    @Test
    void theMultiHostFormIsOneUrlPerBroker() {
        assertEquals(List.of("http://a:1", "http://b:2"), PulsarAdmin.brokers("http://a:1,b:2"));
        assertEquals(List.of("http://a:1", "http://b:2"), PulsarAdmin.brokers("http://a:1,http://b:2"));
        assertEquals(List.of("http://a:8080"), PulsarAdmin.brokers("http://a:8080"));
    }

    @Test
    void aBrokerThatIsDownIsPassedOverForTheNext() throws Exception {
        int down = FreePorts.take(1).get(0);
        PulsarAdmin admin = new PulsarAdmin("http://127.0.0.1:" + down + ",127.0.0.1:" + broker.getAddress().getPort(),
                ClientSecurity.NONE);
        assertEquals("pulsar://127.0.0.1:6652", admin.ownerOf("t1", false));
        assertEquals("pulsar://127.0.0.1:6652", admin.ownerOf("t1", false), "and asked first from then on");
    }

    @Test
    void whenNoneAnswersTheFlagIsNamed() {
        int down = FreePorts.take(1).get(0);
        String url = "http://127.0.0.1:" + down;
        UserError error = assertThrows(UserError.class,
                () -> new PulsarAdmin(url, ClientSecurity.NONE).ownerOf("t1", false));
        assertEquals("--pulsar-admin-url: nothing answers at " + url + "; give the broker's web service "
                + "(http://HOST:8080), or omit --url to start a local Pulsar", error.getMessage());
    }
}
