package dev.msgbench.rabbit.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;
import dev.msgbench.core.security.Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

class RabbitConfTest {

    @TempDir
    Path dir;

    @Test
    void aSecuredNodeHasOnlyATlsListenerAndItsLoginIsWrittenButNotShown() throws Exception {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of("conf-Secret-1"), true));
        Map<String, String> conf = RabbitConf.of(5671, Map.of("max_message_size", "1000"), security);
        Path file = dir.resolve("rabbitmq.conf");
        RabbitConf.write(conf, security, file);

        assertEquals(securedAmqp("conf-Secret-1", true) + "max_message_size = 1000\n", Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(conf.toString().contains("conf-Secret-1"), conf.toString());
    }

    @Test
    void anOpenNodesStreamListenerIsPlainAndAdvertisesTheNodesAddress() {
        Map<String, String> conf = RabbitConf.of("127.0.0.1", 5672, 5552, RabbitConf.NO_MQTT_PORT, List.of(), false,
                Map.of(), null);

        assertEquals(Map.of("listeners.tcp.default", "127.0.0.1:5672", "stream.listeners.tcp.1", "127.0.0.1:5552",
                "stream.advertised_host", "127.0.0.1", "stream.advertised_port", "5552"), conf);
    }

    /** The plugin's default plain listener (5552, every interface) would otherwise stay on beside the TLS one. */
    @Test
    void aSecuredNodesOnlyStreamListenerIsTlsWithTheSharedCertificatesAndAdvertisesItsTlsPort() throws Exception {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of("conf-Secret-2"), false));
        Map<String, String> conf = RabbitConf.of("127.0.0.1", 5671, 5551, RabbitConf.NO_MQTT_PORT, List.of(), false,
                Map.of(), security);
        Path file = dir.resolve("rabbitmq.conf");
        RabbitConf.write(conf, security, file);

        assertEquals(securedAmqp("conf-Secret-2", false)
                + "stream.listeners.tcp = none\n"
                + "stream.listeners.ssl.default = 127.0.0.1:5551\n"
                + "stream.advertised_host = 127.0.0.1\n"
                + "stream.advertised_tls_port = 5551\n", Files.readString(file));
        assertFalse(conf.toString().contains("conf-Secret-2"), conf.toString());
        for (String key : List.of("stream.listeners.ssl.default", "stream.advertised_tls_port", "stream.listeners.tcp")) {
            UserError e = assertThrows(UserError.class, () -> RabbitConf.checkUserProps(Map.of(key, "5551")));
            assertEquals("--broker-prop " + key + " cannot be set: msgbench chooses it for every run (ports, log files, "
                    + "cluster peers); remove it", e.getMessage());
        }
    }

    @Test
    void anOpenNodeOnAHostOfItsOwnLetsGuestInFromTheClientsHostUnlessTheUserSaysOtherwise() {
        Map<String, String> conf = RabbitConf.of("10.77.12.2", 5672, List.of(), true,
                Map.of("loopback_users.guest", "true"), null);

        assertEquals(List.of("listeners.tcp.default", "loopback_users.guest"), List.copyOf(conf.keySet()));
        assertEquals("10.77.12.2:5672", conf.get("listeners.tcp.default"));
        assertEquals("true", conf.get("loopback_users.guest"), "the user's value replaces ours");
        assertEquals(Map.of("listeners.tcp.default", "10.77.12.2:5672", "loopback_users.guest", "false"),
                RabbitConf.of("10.77.12.2", 5672, List.of(), true, Map.of(), null));
        assertEquals(Map.of("listeners.tcp.default", "127.0.0.1:5672"),
                RabbitConf.of("127.0.0.1", 5672, List.of(), false, Map.of(), null), "guest over loopback only");
    }

    @Test
    void theMqttPluginListensOnItsOwnPortOfTheNodesAddressAndNoUserMayMoveIt() {
        Map<String, String> conf = RabbitConf.of("127.0.0.1", 5672, RabbitConf.NO_STREAM_PORT, 1883, List.of(), false,
                Map.of("mqtt.prefetch", "10"), null);

        assertEquals(Map.of("listeners.tcp.default", "127.0.0.1:5672", "mqtt.listeners.tcp.default", "127.0.0.1:1883",
                "mqtt.prefetch", "10"), conf);
        UserError e = assertThrows(UserError.class,
                () -> RabbitConf.checkUserProps(Map.of("mqtt.listeners.tcp.default", "1883")));
        assertEquals("--broker-prop mqtt.listeners.tcp.default cannot be set: msgbench chooses it for every run (ports, "
                + "log files, cluster peers); remove it", e.getMessage());
        assertEquals(List.of("rabbitmq_mqtt"), RabbitBrokerSpec.defaults().withMqtt().withMqtt().plugins(),
                "enabled once");
    }

    @Test
    void aSecuredNodesMqttListenerSpeaksTlsOnlyAndLetsNoAnonymousClientIn() {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of("mqtt-Secret-2"), false));
        Map<String, String> conf = RabbitConf.of("127.0.0.1", 5671, RabbitConf.NO_STREAM_PORT, 8883, List.of(), false,
                Map.of(), security);

        assertEquals(List.of("listeners.tcp", "listeners.ssl.default", "ssl_options.cacertfile", "ssl_options.certfile",
                "ssl_options.keyfile", "ssl_options.verify", "ssl_options.fail_if_no_peer_cert", "mqtt.listeners.tcp",
                "mqtt.listeners.ssl.default", "mqtt.allow_anonymous"), List.copyOf(conf.keySet()));
        assertEquals("none", conf.get("mqtt.listeners.tcp"));
        assertEquals("127.0.0.1:8883", conf.get("mqtt.listeners.ssl.default"));
        assertEquals("false", conf.get("mqtt.allow_anonymous"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"two words", "before#after", "caf\u00e9"})
    void aPasswordThatRabbitmqConfCannotHoldIsRefusedWithoutShowingIt(String password) {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of(password), false));
        UserError e = assertThrows(UserError.class,
                () -> RabbitConf.write(RabbitConf.of(5671, Map.of(), security), security, dir.resolve("rabbitmq.conf")));

        assertEquals("--password-file: a local RabbitMQ node takes a password of printable ASCII without spaces or '#' (it goes "
                + "into rabbitmq.conf, which has no quoting)", e.getMessage());
    }

    /** The lines of a secured node on 127.0.0.1:5671 as user bench-user, before the ones a test adds. */
    private String securedAmqp(String password, boolean mutualTls) {
        return "# written by msgbench for one run\n"
                + "default_user = bench-user\n"
                + "default_pass = " + password + "\n"
                + "listeners.tcp = none\n"
                + "listeners.ssl.default = 127.0.0.1:5671\n"
                + "ssl_options.cacertfile = " + dir.resolve("ca.pem") + "\n"
                + "ssl_options.certfile = " + dir.resolve("server.pem") + "\n"
                + "ssl_options.keyfile = " + dir.resolve("server.key") + "\n"
                + "ssl_options.verify = verify_peer\n"
                + "ssl_options.fail_if_no_peer_cert = " + mutualTls + "\n";
    }

    private LocalSecurity security(BrokerSecurity login) {
        Pki pki = new Pki(dir, dir.resolve("ca.pem"), dir.resolve("server.pem"), dir.resolve("server.key"),
                dir.resolve("client.pem"), dir.resolve("client.key"));
        return new LocalSecurity(pki, login, dir.resolve("password"));
    }
}
