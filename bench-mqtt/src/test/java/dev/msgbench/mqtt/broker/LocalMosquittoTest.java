package dev.msgbench.mqtt.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.MqttProbe;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;

/** Debian's mosquitto, started for real on a free loopback port with a config the suite writes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class LocalMosquittoTest {

    @TempDir
    Path dir;

    @Test
    void oneNodeAcceptsAnMqttSessionOnLoopbackAndLeavesNothingBehind() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path logs = dir.resolve("logs");
        int port;
        try (LocalMosquitto mosquitto = LocalMosquitto.start(MosquittoBrokerSpec.of(BrokerSpec.defaults().withLogDir(logs)),
                temp)) {
            port = mosquitto.port();
            assertEquals("mqtt://127.0.0.1:" + port, mosquitto.url());
            assertTrue(MqttProbe.accepts("127.0.0.1", port));
            assertTrue(mosquitto.version().matches("\\d+\\.\\d+\\.\\d+"), mosquitto.version());
            assertEquals(Map.of("persistence", "false", "autosave_interval", "1800", "autosave_on_changes", "false",
                    "max_queued_messages", "0", "persistence_location", mosquitto.dataDir(1) + "/"),
                    mosquitto.writtenSettings());
            List<String> conf = Files.readAllLines(mosquitto.configFile());
            assertEquals("listener " + port + " 127.0.0.1", conf.get(0));
            assertTrue(conf.contains("persistence_location " + mosquitto.dataDir(1) + "/"), conf.toString());
            assertTrue(Files.size(logs.resolve("mosquitto-1.log")) > 0, "the broker logs into the log dir");
        }
        assertThrows(IOException.class, () -> MqttProbe.accepts("127.0.0.1", port), "stopped on close");
        try (Stream<Path> left = Files.list(temp)) {
            assertEquals(0, left.count(), "the temp dir is removed on close");
        }
    }

    @Test
    void aSecuredNodeTakesOnlyTlsWithItsLogin() throws Exception {
        BrokerSecurity login = new BrokerSecurity("bench-user", Secret.of("local-Mqtt-Secret-8"), false);
        try (LocalMosquitto mosquitto = LocalMosquitto.start(MosquittoBrokerSpec.of(BrokerSpec.defaults()
                .withLogDir(dir.resolve("logs")).withSecurity(login)), dir)) {
            int port = mosquitto.port();
            ClientSecurity client = mosquitto.clientSecurity();
            assertEquals("mqtts://127.0.0.1:" + port, mosquitto.url());
            assertEquals("TLS, user bench-user, password", client.toString());
            assertTrue(MqttProbe.accepts("127.0.0.1", port, client));
            assertFalse(MqttProbe.accepts("127.0.0.1", port, client.withLogin("bench-user", Secret.of("wrong-Pw-1"))),
                    "a wrong password is refused");
            assertFalse(MqttProbe.accepts("127.0.0.1", port, client.withLogin(null, null)), "no anonymous client");
            assertThrows(IOException.class, () -> MqttProbe.accepts("127.0.0.1", port), "no plain listener");
            assertFalse(Files.readString(mosquitto.configFile()).contains("local-Mqtt-Secret-8"));
        }
    }

    @Test
    void persistenceFromBrokerPropsWritesTheDatabaseOnAStop() throws Exception {
        try (LocalMosquitto mosquitto = LocalMosquitto.start(MosquittoBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("persistence", "true", "autosave_interval", "60"))), dir)) {
            assertEquals("true", mosquitto.writtenSettings().get("persistence"));
            assertEquals("60", mosquitto.writtenSettings().get("autosave_interval"));
            mosquitto.stopNode(1);
            assertTrue(Files.exists(mosquitto.dataDir(1).resolve("mosquitto.db")), "saved on a clean stop");
        }
    }

    @Test
    void aClusterAndReservedSettingsAreRefusedInOneLine() {
        assertEquals("--brokers 2: Mosquitto has no cluster, a local MQTT broker is one node; give --brokers 1",
                assertThrows(UserError.class, () -> MosquittoBrokerSpec.of(BrokerSpec.defaults().withNodes(2)))
                        .getMessage());
        assertEquals("--broker-prop listener cannot be set: msgbench chooses it for every start (the listener, "
                + "directories, logs and the process's user); remove it", assertThrows(UserError.class,
                () -> MosquittoBrokerSpec.of(BrokerSpec.defaults().withProps(Map.of("listener", "1883"))))
                .getMessage());
    }

    @Test
    void aMissingBinarySaysHowToInstallIt() {
        assertEquals("cannot find mosquitto on the PATH, /usr/sbin or /usr/bin: install it (apt-get install mosquitto; "
                + "the suite never uses its systemd service) or pass --url to measure a running MQTT broker",
                assertThrows(UserError.class, () -> MosquittoBinary.locate(null, dir.toString(), List.of()))
                        .getMessage());
        assertFalse(Files.exists(dir.resolve("mosquitto")));
    }
}
