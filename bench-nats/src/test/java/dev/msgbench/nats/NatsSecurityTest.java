package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.NKey;
import io.nats.client.Subscription;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import dev.msgbench.nats.wire.WireConnection;

/** A nats-server started with TLS and a login, and what each kind of client makes of it. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsSecurityTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String PASSWORD = "nats-secret-" + System.nanoTime();

    @TempDir
    static Path logs;

    private static LocalNatsServer server;

    @BeforeAll
    static void startSecuredServer() {
        server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(logs)
                .withSecurity(BrokerSecurity.generated().withPassword(Secret.of(PASSWORD)))));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private final List<Throwable> asyncErrors = new CopyOnWriteArrayList<>();

    private Connection open(String url, NatsAuth auth) throws InterruptedException {
        return NatsConnections.open(url, auth, "test", TIMEOUT, false, new ErrorRelay("test", asyncErrors::add));
    }

    private static String plainUrl() {
        return server.url().replace("tls://", "nats://");
    }

    @Test
    void aSecuredServerSpeaksTlsOnLoopbackAndKeepsItsPasswordInItsOwnFolderOnly() throws Exception {
        assertTrue(server.url().matches("tls://127\\.0\\.0\\.1:\\d+"), server.url());
        assertNotNull(server.localSecurity());
        assertTrue(server.monitor(1).healthy(), "the monitoring port stays plain HTTP");
        assertEquals(PASSWORD, Files.readString(server.localSecurity().passwordFile()));
        assertFalse(ProcessHandle.of(server.pid(1)).orElseThrow().info().commandLine().orElse("").contains(PASSWORD));
        assertFalse(Files.readString(logs.resolve("nats-1.log")).contains(PASSWORD));
    }

    @Test
    void jnatsWithTheLoginGetsAMessageThroughOverTls() throws Exception {
        ErrorRelay relay = new ErrorRelay("test", asyncErrors::add);
        Connection connection = NatsConnections.open(server.url(), new NatsAuth(server.clientSecurity(), null, null),
                "test", TIMEOUT, false, relay);
        try {
            Subscription subscription = connection.subscribe("secure.test");
            connection.publish("secure.test", "hello".getBytes(StandardCharsets.UTF_8));
            Message message = subscription.nextMessage(TIMEOUT);
            assertNotNull(message, "the message came through");
            assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), message.getData());
        } finally {
            relay.closing();
            connection.close();
        }
        assertEquals(List.of(), asyncErrors);
    }

    @Test
    void aWrongPasswordIsOneLineSayingTheLoginWasRefused() {
        ClientSecurity wrong = server.clientSecurity().withLogin("msgbench", Secret.of("not-the-password"));
        UserError e = assertThrows(UserError.class, () -> open(server.url(), new NatsAuth(wrong, null, null)));
        assertEquals("--url: the NATS server at " + server.url() + " refused the login (Authorization Violation); "
                + "check --user and --password-file (or the token, NKey or credentials file)", e.getMessage());
    }

    @Test
    void aServerCertificateFromAnUnknownAuthorityIsOneLineNamingTheCaFlag() {
        ClientSecurity jvmTrust = server.clientSecurity().withTls(TlsFiles.DEFAULT_TRUST);
        UserError e = assertThrows(UserError.class, () -> open(server.url(), new NatsAuth(jvmTrust, null, null)));
        assertEquals("--url: TLS with the NATS server at " + server.url() + " failed: its certificate is not signed by an "
                + "authority this client trusts; give the authority that signed its certificate with --ca (a PEM file)",
                e.getMessage());
    }

    @Test
    void aPlaintextJnatsClientIsToldTheServerRequiresTls() {
        ClientSecurity loginOnly = server.clientSecurity().withTls(null);
        UserError e = assertThrows(UserError.class, () -> open(plainUrl(), new NatsAuth(loginOnly, null, null)));
        assertEquals("--url: the NATS server at " + plainUrl() + " requires TLS; use tls:// in --url, or --ca with the "
                + "authority that signed its certificate", e.getMessage());
    }

    @Test
    void theDirectClientRefusesTlsAndLoginsSayingToUseJnats() {
        UserError e = assertThrows(UserError.class, () -> NatsSettings.defaults(server.url())
                .withSecurity(server.clientSecurity()).withPublisherClient(NatsClient.DIRECT));
        assertEquals("--nats-client direct speaks plain nats:// without a login (but for one in the URL); use "
                + "--nats-client jnats for TLS, --user, tokens, NKeys and credentials files", e.getMessage());
    }

    @Test
    void theDirectClientMeetingAServerThatDemandsTlsSaysToUseJnats() {
        String address = plainUrl().substring("nats://".length());
        UserError e = assertThrows(UserError.class, () -> WireConnection.open(plainUrl(), 0, "test", TIMEOUT,
                false, new FirstFailure()));
        assertEquals("--url: the NATS server at " + address + " requires TLS, which --nats-client direct does not speak; "
                + "use --nats-client jnats", e.getMessage());
    }

    @Test
    void aServerDemandingMutualTlsAcceptsTheClientCertificateAndRefusesAClientWithoutOne(@TempDir Path dir)
            throws Exception {
        try (LocalNatsServer mutual = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir)
                .withSecurity(BrokerSecurity.generated().withMutualTls(true))))) {
            ClientSecurity withCertificate = mutual.clientSecurity();
            assertTrue(withCertificate.tls().mutual());
            try (Connection connection = open(mutual.url(), new NatsAuth(withCertificate, null, null))) {
                assertEquals(Connection.Status.CONNECTED, connection.getStatus());
            }
            ClientSecurity caOnly = withCertificate.withTls(new TlsFiles(withCertificate.tls().caFile(), null, null));
            UserError e = assertThrows(UserError.class, () -> open(mutual.url(), new NatsAuth(caOnly, null, null)));
            assertEquals("--url: the NATS server at " + mutual.url() + " did not complete the TLS connection within 5 s: "
                    + "if it demands mutual TLS, give a client certificate with --client-cert and --client-key",
                    e.getMessage());
        }
    }

    @Test
    void anNKeySeedLogsInToAServerThatKnowsItsPublicKey(@TempDir Path dir) throws Exception {
        NKey user = NKey.createUser(null);
        String publicKey = new String(user.getPublicKey());
        try (LocalNatsServer nkeyServer = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir)
                .withProps(Map.of("authorization.users", "[{nkey: " + publicKey + "}]"))))) {
            Secret seed = Secret.of(new String(user.getSeed()));
            try (Connection connection = open(nkeyServer.url(), new NatsAuth(ClientSecurity.NONE, seed, null))) {
                assertEquals(Connection.Status.CONNECTED, connection.getStatus());
            }
            UserError e = assertThrows(UserError.class, () -> open(nkeyServer.url(), NatsAuth.NONE));
            assertTrue(e.getMessage().contains("refused the login (Authorization Violation)"), e.getMessage());
        }
    }
}
