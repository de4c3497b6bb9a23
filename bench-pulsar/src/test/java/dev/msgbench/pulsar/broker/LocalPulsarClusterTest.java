package dev.msgbench.pulsar.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.testing.NeedsBroker;

/** A local Pulsar cluster (ZooKeeper, 3 bookies, 3 brokers), started for real in child JVMs. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@NeedsBroker
class LocalPulsarClusterTest {

    @TempDir
    Path dir;

    @Test
    void threeBrokersOnThreeBookiesAreHealthyWithTheSuitesQuorumsAndLeaveNothingBehind() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path logs = dir.resolve("logs");
        String admin;
        try (LocalPulsarCluster pulsar = LocalPulsarCluster.start(
                PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3).withLogDir(logs)), temp)) {
            assertTrue(pulsar.url().matches("pulsar://127\\.0\\.0\\.1:\\d+(,127\\.0\\.0\\.1:\\d+){2}"), pulsar.url());
            assertTrue(pulsar.adminUrl().matches("http://127\\.0\\.0\\.1:\\d+(,127\\.0\\.0\\.1:\\d+){2}"),
                    pulsar.adminUrl());
            admin = pulsar.adminUrl().split(",")[0];
            assertEquals(6, pulsar.nodeCount(), "brokers 1 to 3, bookies 4 to 6");
            assertEquals("ok", get(admin + "/admin/v2/brokers/health"));
            assertEquals("[\"msgbench\"]", get(admin + "/admin/v2/clusters"));
            String bookies = get(admin + "/admin/v2/bookies/all");
            assertEquals(3, bookies.split("127\\.0\\.0\\.1:", -1).length - 1, "three bookies registered: " + bookies);
            String brokerConf = Files.readString(pulsar.dataDir(2).resolve("broker.conf"));
            assertTrue(brokerConf.contains("\nmanagedLedgerDefaultEnsembleSize=3\nmanagedLedgerDefaultWriteQuorum=3\n"
                    + "managedLedgerDefaultAckQuorum=2\n"), brokerConf);
            String bookieConf = Files.readString(pulsar.dataDir(4).resolve("bookkeeper.conf"));
            assertTrue(bookieConf.contains("\njournalSyncData=true\n"), bookieConf);
            String first = pulsar.url().substring("pulsar://".length()).split(",")[0];
            assertEquals(OptionalInt.of(1), pulsar.nodeOfBroker("pulsar://" + first));
            assertEquals(OptionalInt.empty(), pulsar.nodeOfBroker("pulsar://127.0.0.1:1"));
            assertTrue(pulsar.startTime().toMillis() > 0);
            for (String log : List.of("pulsar-broker-1.log", "pulsar-bookie-3.log", "pulsar-zookeeper.log",
                    "pulsar-cluster-metadata-setup.log")) {
                assertTrue(Files.size(logs.resolve(log)) > 0, log);
            }
        }
        assertThrows(java.io.IOException.class, () -> get(admin + "/admin/v2/brokers/health"), "stopped on close");
        try (Stream<Path> left = Files.list(temp)) {
            assertEquals(0, left.count(), "the data dir is removed on close");
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return response.body().strip();
    }
}
