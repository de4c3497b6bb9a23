package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One real node started with TLS (mutual) and a login, shared by the class, and clients with and without them. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitSecurityTest {

    private static final String PASSWORD = "rabbit-Secret-7Qx2";

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(90)
    static void startBroker() {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withSecurity(new BrokerSecurity("bench-user", Secret.of(PASSWORD), true))));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aClientWithTheCertificatesAndTheLoginPublishesAndConsumesEverything() throws Exception {
        assertTrue(broker.url().matches("amqps://127\\.0\\.0\\.1:\\d+"), broker.url());
        RunResult r = ShortRuns.run(new RabbitMqSystem(RabbitSettings.defaults(broker.url())
                        .withSecurity(broker.clientSecurity())), dir, 300, 256, 2, 1, Duration.ofSeconds(1),
                Duration.ofSeconds(2));

        assertEquals(RunStatus.COMPLETE, r.status(), String.valueOf(r.error()));
        assertEquals(r.counts().sent(), r.counts().received());
        assertEquals(900, r.counts().received());
        assertEquals(0, r.counts().lost());
        assertEquals("amqps://127.0.0.1:" + port(), r.settings().get("url"));
        assertTrue(broker.version().startsWith("3."), broker.version());
    }

    @Test
    void theNodeServesNoPlainAmqpAndKeepsItsLoginOwnerOnly() throws Exception {
        assertEquals("none", broker.conf().get("listeners.tcp"));
        assertEquals("true", broker.conf().get("ssl_options.fail_if_no_peer_cert"));
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
            out.flush();
            InputStream in = socket.getInputStream();
            int first = readOrEnd(in);
            assertTrue(first != 1, "a plain AMQP greeting must not be answered with connection.start");
        }
        Path conf = broker.localSecurity().passwordFile().getParent().getParent().resolve("node-1/rabbitmq.conf");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(conf)));
        assertEquals(PASSWORD, Files.readString(broker.localSecurity().passwordFile(), StandardCharsets.UTF_8));
    }

    @Test
    void theTlsListenerIsOnLoopbackOnlyAndTheNodesFolderIsTheOwnersOnly() throws Exception {
        assertEquals("127.0.0.1:" + port(), broker.conf().get("listeners.ssl.default"));
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (!address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    others.add(address);
                }
            }
        }
        for (InetAddress address : others) {
            try (Socket socket = new Socket()) {
                assertThrows(IOException.class, () -> socket.connect(new InetSocketAddress(address, port()), 1_000),
                        "the node must not be reachable at " + address);
            }
        }
        Path tempDir = broker.localSecurity().passwordFile().getParent().getParent();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tempDir)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                broker.localSecurity().pki().dir())));
    }

    @Test
    void aWrongPasswordIsOneLineNamingTheRefusedLoginAndTheLogsDoNotHoldThePassword() throws Exception {
        ClientSecurity wrong = broker.clientSecurity().withLogin("bench-user", Secret.of("not-the-password"));
        UserError e = assertThrows(UserError.class, () -> prepare(wrong));

        assertEquals("--user: RabbitMQ at amqps://127.0.0.1:" + port() + " refused the login of user 'bench-user' "
                + "(ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker "
                + "logfile.); check --user and --password-file, or the URL's amqp://USER:PASSWORD@HOST", e.getMessage());
        String log = Files.readString(broker.logFile(), StandardCharsets.ISO_8859_1);
        assertTrue(log.contains("bench-user"), "the refusal is logged");
        assertFalse(log.contains(PASSWORD), "the node's log holds the password");
        assertFalse(log.contains("not-the-password"), "the node's log holds the wrong password");
    }

    @Test
    void theVirtualHostComesFromTheUrlsPathAndAnUnknownOneIsOneLine() throws Exception {
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url() + "/%2F")
                .withSecurity(broker.clientSecurity()));
        system.prepare(new RunPlan("msgbench-vhost", 100, 1, 1));
        system.close();
        RabbitSettings unknown = RabbitSettings.defaults(broker.url() + "/elsewhere").withSecurity(broker.clientSecurity());
        UserError e = assertThrows(UserError.class,
                () -> new RabbitMqSystem(unknown).prepare(new RunPlan("msgbench-vhost", 100, 1, 1)));

        assertEquals("--url: RabbitMQ at amqps://127.0.0.1:" + port() + "/elsewhere refused virtual host 'elsewhere' to "
                + "user 'bench-user' (NOT_ALLOWED - vhost elsewhere not found); the URL's path is the virtual host: amqp://HOST:PORT/VHOST, %2F for /",
                e.getMessage());
    }

    @Test
    void aServerCertificateFromAnUnknownAuthorityIsOneLineNamingTheCaFlag() {
        ClientSecurity untrusted = broker.clientSecurity().withTls(TlsFiles.DEFAULT_TRUST);
        UserError e = assertThrows(UserError.class, () -> prepare(untrusted));

        assertEquals("--ca: the TLS certificate of RabbitMQ at amqps://127.0.0.1:" + port() + " is not trusted "
                + "(unable to find valid certification path to requested target); give the authority that signed it "
                + "with --ca FILE (PEM)", e.getMessage());
    }

    @Test
    void aClientWithoutACertificateIsRefusedByMutualTlsInOneLine() {
        ClientSecurity noCert = broker.clientSecurity()
                .withTls(new TlsFiles(broker.localSecurity().pki().caFile(), null, null));
        UserError e = assertThrows(UserError.class, () -> prepare(noCert));

        // TLS 1.3: whether the server's alert or its close reaches the client first depends on timing
        assertTrue(e.getMessage().matches("--client-cert: RabbitMQ at amqps://127\\.0\\.0\\.1:" + port()
                + " (demands a client certificate \\(Received fatal alert: certificate_required\\)|closed the TLS "
                + "connection \\([^)]+\\): it may demand a client certificate); give --client-cert and --client-key"),
                e.getMessage());
    }

    private static void prepare(ClientSecurity security) throws Exception {
        RabbitMqSystem system = new RabbitMqSystem(RabbitSettings.defaults(broker.url()).withSecurity(security));
        try {
            system.prepare(new RunPlan("msgbench-refused", 100, 1, 1));
        } finally {
            system.close();
        }
    }

    private static int readOrEnd(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (IOException e) {
            return -1;
        }
    }

    private static int port() {
        return URI.create(broker.url()).getPort();
    }
}
