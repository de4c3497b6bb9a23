package dev.msgbench.mqtt.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;
import dev.msgbench.core.security.Secret;

class MosquittoConfigTest {

    private static final Pki PKI = new Pki(Path.of("/t/tls"), Path.of("/t/tls/ca.pem"), Path.of("/t/tls/server.pem"),
            Path.of("/t/tls/server.key"), Path.of("/t/tls/client.pem"), Path.of("/t/tls/client.key"));

    @Test
    void anOpenNodeHasOnePlainListenerForAnonymousClients() {
        List<String> lines = new MosquittoConfig(Map.of()).lines("127.0.0.1", 1883, Path.of("/t/node-1"), "bench");

        assertEquals(List.of("listener 1883 127.0.0.1", "allow_anonymous true"), lines.subList(0, 2));
    }

    @Test
    void aSecuredNodesOneListenerSpeaksTlsAndTakesOnlyTheLoginOfThePasswordFile() {
        BrokerSecurity login = new BrokerSecurity("msgbench", Secret.of("conf-Mqtt-Secret"), false);
        List<String> lines = new MosquittoConfig(Map.of("persistence", "true")).lines("127.0.0.1", 8883,
                Path.of("/t/node-1"), "bench", new LocalSecurity(PKI, login, Path.of("/t/tls/password")),
                Path.of("/t/tls/mosquitto.passwd"));

        assertEquals(List.of("listener 8883 127.0.0.1",
                "cafile /t/tls/ca.pem",
                "certfile /t/tls/server.pem",
                "keyfile /t/tls/server.key",
                "require_certificate false",
                "allow_anonymous false",
                "password_file /t/tls/mosquitto.passwd",
                "persistence_location /t/node-1/",
                "log_dest stdout",
                "log_type error",
                "log_type warning",
                "log_type notice",
                "log_type information",
                "user bench",
                "persistence true",
                "autosave_interval 1800",
                "autosave_on_changes false",
                "max_queued_messages 0"), lines);
    }

    @Test
    void mutualTlsDemandsAClientCertificate() {
        BrokerSecurity login = new BrokerSecurity("msgbench", Secret.of("conf-Mqtt-Secret"), true);
        List<String> lines = new MosquittoConfig(Map.of()).lines("127.0.0.1", 8883, Path.of("/t/node-1"), "bench",
                new LocalSecurity(PKI, login, Path.of("/t/tls/password")), Path.of("/t/tls/mosquitto.passwd"));

        assertEquals("require_certificate true", lines.get(4));
    }

    @Test
    void aSecuredNodeRefusesBrokerPropsThatWouldReplaceItsCertificate() {
        BrokerSpec secured = BrokerSpec.defaults().withSecurity(BrokerSecurity.generated());

        assertEquals("--broker-prop certfile cannot be set with --secure: msgbench configures the listener's TLS and "
                + "login for it; remove it", assertThrows(UserError.class,
                () -> MosquittoBrokerSpec.of(secured.withProps(Map.of("certfile", "/etc/x.pem")))).getMessage());
        assertEquals("--broker-prop password_file cannot be set: msgbench chooses it for every start (the listener, "
                + "directories, logs and the process's user); remove it", assertThrows(UserError.class,
                () -> MosquittoBrokerSpec.of(secured.withProps(Map.of("password_file", "/etc/p")))).getMessage());
    }
}
