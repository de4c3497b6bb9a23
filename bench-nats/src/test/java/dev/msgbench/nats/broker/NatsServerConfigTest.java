package dev.msgbench.nats.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;
import dev.msgbench.core.security.Secret;

class NatsServerConfigTest {

    private static final Pki PKI = new Pki(Path.of("/t/tls"), Path.of("/t/tls/ca.pem"), Path.of("/t/tls/server.pem"),
            Path.of("/t/tls/server.key"), Path.of("/t/tls/client.pem"), Path.of("/t/tls/client.key"));

    private final NatsNode one = new NatsNode(1, 4001, 8001, 6001, Path.of("/t/node-1"), Path.of("/l/nats-1.log"));
    private final NatsNode two = new NatsNode(2, 4002, 8002, 6002, Path.of("/t/node-2"), Path.of("/l/nats-2.log"));

    @Test
    void aClusterNodeListsEveryRouteAndDottedPropsGoIntoTheirBlock() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("jetstream.sync_interval", "always");
        props.put("write_deadline", "\"10s\"");
        NatsServerSpec spec = NatsServerSpec.defaults().withJetStream(true)
                .withBroker(BrokerSpec.defaults().withProps(props));

        assertEquals("""
                # written by msgbench for one run; removed when the server stops
                server_name: msgbench-nats-2
                listen: "127.0.0.1:4002"
                http: "127.0.0.1:8002"
                max_payload: 8388608
                cluster {
                  name: msgbench
                  listen: "127.0.0.1:6002"
                  routes: ["nats-route://127.0.0.1:6001", "nats-route://127.0.0.1:6002"]
                }
                jetstream {
                  store_dir: "/t/node-2/store"
                  sync_interval: always
                }
                write_deadline: "10s"
                """, NatsServerConfig.render(two, List.of(one, two), spec));
    }

    @Test
    void aUsersMaxPayloadReplacesOurs() {
        NatsServerSpec spec = NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("max_payload", "2MB")));
        assertEquals("""
                # written by msgbench for one run; removed when the server stops
                server_name: msgbench-nats-1
                listen: "127.0.0.1:4001"
                http: "127.0.0.1:8001"
                max_payload: 2MB
                """, NatsServerConfig.render(one, List.of(one), spec));
    }

    @Test
    void aSecuredServerGetsATlsBlockVerifyingClientsForMutualTlsAndTheLoginWithItsPasswordQuoted() {
        BrokerSecurity login = new BrokerSecurity("msgbench", Secret.of("pa\"ss\\word"), true);
        NatsServerSpec spec = NatsServerSpec.of(BrokerSpec.defaults().withSecurity(login));
        assertEquals("""
                # written by msgbench for one run; removed when the server stops
                server_name: msgbench-nats-1
                listen: "127.0.0.1:4001"
                http: "127.0.0.1:8001"
                max_payload: 8388608
                tls {
                  cert_file: "/t/tls/server.pem"
                  key_file: "/t/tls/server.key"
                  ca_file: "/t/tls/ca.pem"
                  verify: true
                }
                authorization {
                  user: "msgbench"
                  password: "pa\\"ss\\\\word"
                }
                """, NatsServerConfig.render(one, List.of(one), spec, new LocalSecurity(PKI, login, Path.of("/t/tls/password"))));
    }

    @Test
    void aSecuredServerRefusesBrokerPropsThatWouldConfigureItsTlsOrLogin() {
        UserError e = assertThrows(UserError.class, () -> NatsServerSpec.of(BrokerSpec.defaults()
                .withSecurity(BrokerSecurity.generated()).withProps(Map.of("tls.verify", "false"))));
        assertEquals("--broker-prop tls.verify cannot be set with --secure: msgbench configures the server's TLS and "
                + "login for it; remove it", e.getMessage());
    }

    @Test
    void anMqttServerHasJetStreamAndAnMqttBlockOnItsOwnPortWithTheUsersMqttSettingsInIt() {
        NatsNode mqtt = new NatsNode(1, 4001, 8001, 0, Path.of("/t/node-1"), Path.of("/l/nats-1.log"), "127.0.0.1",
                1883);
        NatsServerSpec spec = NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("mqtt.max_ack_pending", "100")))
                .withMqtt();
        assertEquals("""
                # written by msgbench for one run; removed when the server stops
                server_name: msgbench-nats-1
                listen: "127.0.0.1:4001"
                http: "127.0.0.1:8001"
                max_payload: 8388608
                jetstream {
                  store_dir: "/t/node-1/store"
                }
                mqtt {
                  listen: "127.0.0.1:1883"
                  max_ack_pending: 100
                }
                """, NatsServerConfig.render(mqtt, List.of(mqtt), spec));
        UserError e = assertThrows(UserError.class,
                () -> NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("mqtt.listen", "0.0.0.0:1883"))));
        assertEquals("--broker-prop mqtt.listen cannot be set: msgbench chooses it for every run (ports, directories, "
                + "cluster routes); remove it", e.getMessage());
    }

    @Test
    void aSecuredMqttListenerSpeaksTlsWithTheSameCertificateAndItsClientsLogInAsTheServersUser() {
        NatsNode mqtt = new NatsNode(1, 4001, 8001, 0, Path.of("/t/node-1"), Path.of("/l/nats-1.log"), "127.0.0.1",
                1883);
        BrokerSecurity login = new BrokerSecurity("msgbench", Secret.of("mqtt-Conf-Secret"), false);
        LocalSecurity security = new LocalSecurity(PKI, login, Path.of("/t/tls/password"));
        String server = NatsServerConfig.render(mqtt, List.of(mqtt),
                NatsServerSpec.of(BrokerSpec.defaults().withSecurity(login)), security);
        assertEquals(server + """
                jetstream {
                  store_dir: "/t/node-1/store"
                }
                mqtt {
                  listen: "127.0.0.1:1883"
                  tls {
                    cert_file: "/t/tls/server.pem"
                    key_file: "/t/tls/server.key"
                    ca_file: "/t/tls/ca.pem"
                  }
                }
                """, NatsServerConfig.render(mqtt, List.of(mqtt),
                NatsServerSpec.of(BrokerSpec.defaults().withSecurity(login)).withMqtt(), security));
        assertTrue(server.contains("authorization {\n  user: \"msgbench\"\n"), server);
        UserError e = assertThrows(UserError.class, () -> NatsServerSpec.of(BrokerSpec.defaults()
                .withSecurity(login).withProps(Map.of("mqtt.tls.verify", "false"))).withMqtt());
        assertEquals("--broker-prop mqtt.tls.verify cannot be set with --secure: msgbench configures the server's TLS "
                + "and login for it; remove it", e.getMessage());
    }

    @Test
    void theLimitHoldsAMebibyteMessageAndGrowsOnlyForLargerOnes() {
        assertEquals(8L << 20, NatsServerSpec.maxPayloadFor(1 << 20));
        assertEquals((20L << 20) + 64 * 1024, NatsServerSpec.maxPayloadFor(20L << 20));
        assertEquals(64L << 20, NatsServerSpec.maxPayloadFor(64L << 20));
    }
}
