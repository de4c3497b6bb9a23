package dev.msgbench.pulsar.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.NetHost;
import dev.msgbench.core.net.Placement;

/** What a Pulsar on hosts of its own (--isolate) is given, without a broker or a namespace. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IsolatedStandaloneTest {

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

    @Test
    void aClusterOnHostsOfItsOwnIsRefusedInOneLineBeforeAnyJvmStarts() throws IOException {
        PulsarBrokerSpec spec = PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3).withPlacement(ISOLATED));

        UserError refused = assertThrows(UserError.class, () -> LocalPulsarCluster.start(spec, dir));

        assertEquals("--isolate: a local Pulsar cluster (--brokers 3) runs on loopback only: its three bookies and "
                + "ZooKeeper would need hosts of their own beside the three brokers, seven JVMs behind links; isolate "
                + "a standalone (--brokers 1)", refused.getMessage());
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no temp dir made");
        }
    }
}
