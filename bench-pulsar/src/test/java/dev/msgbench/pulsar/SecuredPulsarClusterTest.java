package dev.msgbench.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.pulsar.broker.LocalPulsarCluster;
import dev.msgbench.pulsar.broker.PulsarBrokerSpec;
import dev.msgbench.pulsar.broker.PulsarWebAccess;

/**
 * A local Pulsar cluster (ZooKeeper, 3 bookies, 3 brokers), started for real in child JVMs, and
 * secured (--secure): one start serves every check, since it takes a minute on 2 busy cores. The
 * known password is searched for in every file of the cluster, its confs and logs, while it runs.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@NeedsBroker
class SecuredPulsarClusterTest {

    private static final String PASSWORD = "cluster-Leak-Check-8Zp4";

    @TempDir
    Path dir;

    @Test
    void threeSecuredBrokersOnThreeBookiesTakeTheLoginOverTlsRefuseAWrongOneAndLeaveNothingBehind() throws Exception {
        Path logs = dir.resolve("logs");
        BrokerSecurity login = new BrokerSecurity(BrokerSecurity.DEFAULT_USER, Secret.of(PASSWORD), false);
        String admin;
        Path temp;
        try (LocalPulsarCluster pulsar = LocalPulsarCluster.start(PulsarBrokerSpec.of(
                BrokerSpec.defaults().withNodes(3).withLogDir(logs).withSecurity(login)))) {
            temp = pulsar.dataDir(1).getParent();
            assertTrue(pulsar.url().matches("pulsar\\+ssl://127\\.0\\.0\\.1:\\d+(,127\\.0\\.0\\.1:\\d+){2}"),
                    pulsar.url());
            assertTrue(pulsar.adminUrl().matches("https://127\\.0\\.0\\.1:\\d+(,127\\.0\\.0\\.1:\\d+){2}"),
                    pulsar.adminUrl());
            assertEquals("TLS, user msgbench, password", pulsar.clientSecurity().toString());
            admin = pulsar.adminUrl().split(",")[0];
            PulsarWebAccess web = new PulsarWebAccess(pulsar.clientSecurity(), false);
            assertEquals(6, pulsar.nodeCount(), "brokers 1 to 3, bookies 4 to 6");
            assertEquals("ok", get(web, admin + "/admin/v2/brokers/health"));
            assertEquals("[\"msgbench\"]", get(web, admin + "/admin/v2/clusters"));
            String bookies = get(web, admin + "/admin/v2/bookies/all");
            assertEquals(3, bookies.split("127\\.0\\.0\\.1:", -1).length - 1, "three bookies registered: " + bookies);
            String brokerConf = Files.readString(pulsar.dataDir(2).resolve("broker.conf"));
            assertTrue(brokerConf.contains("\nmanagedLedgerDefaultEnsembleSize=3\nmanagedLedgerDefaultWriteQuorum=3\n"
                    + "managedLedgerDefaultAckQuorum=2\n"), brokerConf);
            assertTrue(brokerConf.contains("\nbrokerServicePort=\n") && brokerConf.contains("\nwebServicePort=\n"),
                    "no plain port: " + brokerConf);
            String bookieConf = Files.readString(pulsar.dataDir(4).resolve("bookkeeper.conf"));
            assertTrue(bookieConf.contains("\njournalSyncData=true\n"), bookieConf);
            assertEquals("TLS and a login on the brokers' client and admin ports; plain on loopback between brokers "
                    + "and bookies and with ZooKeeper", pulsar.encryption());
            assertEquals("true", pulsar.effectiveConf().get("authenticationEnabled"));
            String first = pulsar.url().substring("pulsar+ssl://".length()).split(",")[0];
            assertEquals(OptionalInt.of(1), pulsar.nodeOfBroker("pulsar+ssl://" + first));
            assertEquals(OptionalInt.empty(), pulsar.nodeOfBroker("pulsar+ssl://127.0.0.1:1"));
            assertTrue(pulsar.startTime().toMillis() > 0);

            assertEveryMessageArrivesOnce(pulsar, pulsar.clientSecurity());
            UserError refused = assertThrows(UserError.class, () -> assertEveryMessageArrivesOnce(pulsar,
                    pulsar.clientSecurity().withLogin(BrokerSecurity.DEFAULT_USER, Secret.of("wrong-Leak-Check-1Qa9"))));
            assertEquals("--user: Pulsar at " + pulsar.adminUrl() + " refused the login of user 'msgbench' (HTTP 401); "
                    + "check --user and --password-file", refused.getMessage());

            for (String log : List.of("pulsar-broker-1.log", "pulsar-bookie-3.log", "pulsar-zookeeper.log",
                    "pulsar-cluster-metadata-setup.log")) {
                assertTrue(Files.size(logs.resolve(log)) > 0, log);
            }
            assertTrue(Files.readString(logs.resolve("pulsar-broker-2.log")).contains("AuthenticationProviderBasic"),
                    "the broker loaded basic authentication");
            // the tls folder holds the password and token files by design (owner-only), as a secured standalone's
            Path tls = temp.resolve("tls");
            assertAbsent(PASSWORD, tls, temp, logs);
            assertAbsent(Files.readString(pulsar.tokenFile()), tls, temp, logs);
        }
        assertThrows(IOException.class, () -> get(PulsarWebAccess.OPEN, admin + "/admin/v2/brokers/health"),
                "stopped on close");
        assertFalse(Files.exists(temp), "the data dir is removed on close");
    }

    /** 200 messages through the suite's adapter, over TLS with {@code security}'s login, each acknowledged and received once. */
    private static void assertEveryMessageArrivesOnce(LocalPulsarCluster pulsar, ClientSecurity security)
            throws Exception {
        int count = 200;
        PulsarSystemTest.Sink sink = new PulsarSystemTest.Sink();
        PulsarSystemTest.Acked acked = new PulsarSystemTest.Acked();
        try (PulsarSystem system = new PulsarSystem(new PulsarSettings(pulsar.url(), pulsar.adminUrl(), Acks.ALL,
                PulsarBatching.DEFAULT, null, 0, pulsar, security))) {
            system.prepare(new RunPlan("pulsar-secured-cluster", 100, 1, 1));
            system.subscribe(0, sink).awaitReady(Duration.ofSeconds(30));
            try (Publisher publisher = system.publisher(0, acked)) {
                for (int i = 0; i < count; i++) {
                    publisher.publish(ByteBuffer.allocate(100).putInt(i).array(), i, 0);
                }
                publisher.flush();
                Poll.until(() -> acked.count.get() == count && sink.received.size() == count);
            }
            assertEquals(count, sink.received.stream().distinct().count(), "each message once");
            assertEquals("basic", system.info().settings().get("login"));
        }
    }

    private static String get(PulsarWebAccess web, String url) throws Exception {
        HttpResponse<String> response = web.http().send(web.request().uri(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body().strip();
    }

    /** Fails naming each file under {@code roots}, except under {@code apart}, that holds {@code secret}. */
    private static void assertAbsent(String secret, Path apart, Path... roots) throws IOException {
        List<String> leaks = new ArrayList<>();
        int files = 0;
        for (Path root : roots) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path file : (Iterable<Path>) all.filter(f -> Files.isRegularFile(f) && !f.startsWith(apart))::iterator) {
                    files++;
                    // byte for byte: ISO-8859-1 maps every byte to one char
                    if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(secret.strip())) {
                        leaks.add(file.toString());
                    }
                }
            }
        }
        assertTrue(files > 10, "searched " + files + " files");
        assertEquals(List.of(), leaks, "the secret is in these files");
    }
}
