package dev.msgbench.pulsar.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.NetHost;
import dev.msgbench.core.net.Placement;

/** What a Pulsar on hosts of its own (--isolate) is given, without a broker or a namespace. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IsolatedPulsarTest {

    private static final Placement ISOLATED = new Placement(new IsolatedHosts("msgbench-sw", "10.77.12.0/24",
            new NetHost("client", "msgbench-c", "10.77.12.100", "sw-c"),
            List.of(new NetHost("node 1", "msgbench-n1", "10.77.12.1", "sw-n1"),
                    new NetHost("node 2", "msgbench-n2", "10.77.12.2", "sw-n2"),
                    new NetHost("node 3", "msgbench-n3", "10.77.12.3", "sw-n3")), LinkShaping.NONE));

    @TempDir
    Path dir;

    @Test
    void anIsolatedStandaloneBindsAndAdvertisesNodeOnesAddressAndItsBookieAdvertisesItToo() throws IOException {
        Path conf = dir.resolve("standalone.conf");

        StandaloneConf.write(conf, ISOLATED.address(1), 6650, 8080, Map.of(), Map.of());
        List<String> args = LocalPulsar.arguments(conf, ISOLATED.address(1), 3181, dir);

        // the bookie reads the conf's advertisedAddress; the starter gives the broker --advertised-address
        List<String> lines = Files.readAllLines(conf, StandardCharsets.UTF_8);
        assertTrue(lines.containsAll(List.of("bindAddress=10.77.12.1", "advertisedAddress=10.77.12.1",
                "brokerServicePort=6650", "webServicePort=8080")), lines.toString());
        assertTrue(lines.stream().noneMatch(l -> l.contains("127.0.0.1")), lines.toString());
        int advertised = args.indexOf("--advertised-address");
        assertEquals("10.77.12.1", args.get(advertised + 1), args.toString());
        assertEquals("3181", args.get(args.indexOf("--bookkeeper-port") + 1), args.toString());
    }

    /**
     * Host K runs broker K and bookie K (node 3+K), host 1 ZooKeeper too: each binds and advertises
     * its host's address, and every metadata URL names host 1's; nothing names loopback.
     */
    @Test
    void anIsolatedClusterPutsBrokerAndBookieKOnHostKAndZooKeeperOnHostOne() throws IOException {
        LocalPulsarCluster cluster = new LocalPulsarCluster(PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3)
                .withPlacement(ISOLATED)), List.of(), dir);

        cluster.writeConfs();

        List<String> zoo = Files.readAllLines(cluster.zooKeeperConf(), StandardCharsets.UTF_8);
        assertTrue(zoo.contains("clientPortAddress=10.77.12.1"), zoo.toString());
        String zooKeeper = "10.77.12.1:" + value(zoo, "clientPort");
        for (int host = 1; host <= 3; host++) {
            String address = "10.77.12." + host;
            List<String> broker = Files.readAllLines(cluster.conf(host), StandardCharsets.UTF_8);
            assertTrue(broker.containsAll(List.of("bindAddress=" + address, "advertisedAddress=" + address,
                    "metadataStoreUrl=zk:" + zooKeeper, "configurationMetadataStoreUrl=zk:" + zooKeeper)),
                    broker.toString());
            List<String> bookie = Files.readAllLines(cluster.conf(3 + host), StandardCharsets.UTF_8);
            assertTrue(bookie.containsAll(List.of("advertisedAddress=" + address, "listeningInterface=eth0",
                    "metadataServiceUri=zk://" + zooKeeper + "/ledgers")), bookie.toString());
            assertTrue(broker.stream().noneMatch(l -> l.contains("127.0.0.1")), broker.toString());
            assertTrue(bookie.stream().noneMatch(l -> l.contains("127.0.0.1")), bookie.toString());
            assertEquals(host, cluster.hostOf(host), "broker " + host);
            assertEquals(host, cluster.hostOf(3 + host), "bookie " + host);
            String brokerUrl = "pulsar://" + address + ":" + value(broker, "brokerServicePort");
            assertEquals(OptionalInt.of(host), cluster.nodeOfBroker(brokerUrl), "a lookup's answer names the node");
            assertTrue(cluster.url().contains(brokerUrl.substring("pulsar://".length())), cluster.url());
            assertTrue(cluster.adminUrl().contains(address + ":" + value(broker, "webServicePort")),
                    cluster.adminUrl());
        }
        assertTrue(cluster.url().matches("pulsar://10\\.77\\.12\\.1:\\d+,10\\.77\\.12\\.2:\\d+,"
                + "10\\.77\\.12\\.3:\\d+"), cluster.url());
        List<String> setup = cluster.setupArguments();
        assertEquals("zk:" + zooKeeper, setup.get(setup.indexOf("--metadata-store") + 1), setup.toString());
        assertEquals("zk:" + zooKeeper, setup.get(setup.indexOf("--configuration-metadata-store") + 1));
        assertEquals(cluster.adminUrl().split(",")[0], setup.get(setup.indexOf("--web-service-url") + 1));
        assertEquals(cluster.url(), setup.get(setup.indexOf("--broker-service-url") + 1));
    }

    /** On loopback the bookie binds as before, every address; only a host of its own has a link to name. */
    @Test
    void aClusterOnLoopbackGivesItsBookiesNoListeningInterface() throws IOException {
        LocalPulsarCluster cluster = new LocalPulsarCluster(PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3)),
                List.of(), dir);

        cluster.writeConfs();

        List<String> bookie = Files.readAllLines(cluster.conf(5), StandardCharsets.UTF_8);
        assertTrue(bookie.contains("advertisedAddress=127.0.0.1"), bookie.toString());
        assertTrue(bookie.stream().noneMatch(l -> l.startsWith("listeningInterface=")), bookie.toString());
        assertEquals(2, cluster.hostOf(5));
    }

    private static String value(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith(key + "=")).findFirst().orElseThrow()
                .substring(key.length() + 1);
    }
}
