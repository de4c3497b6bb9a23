package dev.msgbench.pulsar.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.testing.NeedsBroker;

/** pulsar standalone, started for real in a child JVM on free loopback ports. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class LocalPulsarTest {

    @TempDir
    Path dir;

    @Test
    void oneStandaloneIsHealthyOnLoopbackWithTheSuitesConfAndLeavesNothingBehind() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path logs = dir.resolve("logs");
        String admin;
        BrokerSpec broker = BrokerSpec.defaults().withLogDir(logs).withProps(Map.of("journalSyncData", "false"));
        try (LocalPulsar pulsar = LocalPulsar.start(PulsarBrokerSpec.of(broker), temp)) {
            admin = pulsar.adminUrl();
            assertTrue(pulsar.url().matches("pulsar://127\\.0\\.0\\.1:\\d+"), pulsar.url());
            assertEquals("4.0.7", pulsar.version());
            assertEquals("ok", get(admin + "/admin/v2/brokers/health"));
            assertEquals("false", pulsar.effectiveConf().get("journalSyncData"), "--broker-prop wins over ours");
            String conf = Files.readString(pulsar.dataDir(1).resolve("standalone.conf"));
            assertTrue(conf.contains("\njournalSyncData=false\n"), conf);
            assertTrue(pulsar.startTime().toMillis() > 0);
            assertTrue(Files.size(logs.resolve("pulsar-1.log")) > 0, "the standalone logs into the log dir");
        }
        assertThrows(java.io.IOException.class, () -> get(admin + "/admin/v2/brokers/health"), "stopped on close");
        try (Stream<Path> left = Files.list(temp)) {
            assertEquals(0, left.count(), "the data dir is removed on close");
        }
        assertTrue(Files.exists(logs.resolve("pulsar-1.log")), "logs outside the temp dir are kept");
    }

    @Test
    void aPortOrDirectoryOfTheSuiteCannotBeSetAndAStandaloneIsOneNode() {
        UserError reserved = assertThrows(UserError.class, () -> PulsarBrokerSpec.of(
                BrokerSpec.defaults().withProps(Map.of("brokerServicePort", "6650"))));
        assertEquals("--broker-prop brokerServicePort cannot be set: msgbench chooses it for every start (ports, "
                + "addresses, directories); remove it", reserved.getMessage());
        IllegalArgumentException cluster = assertThrows(IllegalArgumentException.class, () -> LocalPulsar.start(
                PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3)), dir));
        assertEquals("a standalone is one node, asked for 3; LocalPulsarCluster starts a cluster", cluster.getMessage());
        assertFalse(Files.exists(dir.resolve("logs")));
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return response.body().strip();
    }
}
