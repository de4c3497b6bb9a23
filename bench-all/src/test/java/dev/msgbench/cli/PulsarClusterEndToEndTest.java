package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * e2e --system pulsar --brokers 3 --isolate --secure --pulsar-auth token: a local cluster of 3
 * brokers on 3 bookies laid out as a real one (host K runs broker K and bookie K, host 1 ZooKeeper
 * too, each JVM on its host's address), TLS and the token login on its brokers' ports, run
 * in-process. (A cluster's password login is SecuredPulsarClusterTest's, in bench-pulsar.)
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
@NeedsBroker
class PulsarClusterEndToEndTest {

    @TempDir
    Path dir;

    /**
     * One cluster start for everything (ZooKeeper, 3 bookies and 3 brokers take 80 s and more to
     * start on 2 busy cores): the hosts' addresses, TLS whose certificate names them, the token
     * login, and two faults. Each message on two bookies (ensemble and write quorum 2), acknowledged
     * once both have it (--acks all): the third is the spare that replaces bookie 2 when it loses
     * power, so writes go on while it restarts (27 s on a machine at load 25; with ensemble 3 of 3
     * bookies every write waits for it, and the producer's 30 s send timeout fails the run). First the
     * topic's broker is killed for good, so that no restart (20 s and more on a busy machine, on the
     * injector's one thread) holds up the bookie's power cut; the bookie's restart (20 s at load
     * 25) must end inside the measured window, or the run's end interrupts it. The clients find the
     * topic's new broker, and the brokers one another, over TLS with the token, across the links.
     */
    @Test
    void anIsolatedSecuredClusterLosesNoAcknowledgedMessageToItsTopicsBrokerKilledAndABookiesPowerCut()
            throws Exception {
        Path out = dir.resolve("fault");
        CliRun run = CliRun.of("e2e", "--system", "pulsar", "--brokers", "3", "--isolate", "--secure",
                "--pulsar-auth", "token", "--acks", "all", "--rate", "200", "--duration", "40s", "--warmup", "1s",
                "--broker-prop", "managedLedgerDefaultEnsembleSize=2", "--broker-prop", "managedLedgerDefaultWriteQuorum=2",
                "--fault", "kill@3s:node=leader:restart-after=never", "--fault", "power-loss@8s:node=bookie-2:restart-after=1s",
                "--drain-timeout", "90s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        assertEquals(0, ResultTrees.lost(r), r.get("counts").toString());
        assertEquals(0, r.get("counts").get("acknowledgedLost").asLong(), r.get("counts").toString());
        assertTrue(r.get("counts").get("acknowledged").asLong() > 4_000, r.get("counts").toString());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertEquals("namespace public/default", d.get("persistencePolicy").asText());
        assertEquals(2, d.get("bookkeeperEnsemble").asInt(), "read back from the broker, over the link");
        assertEquals(2, d.get("bookkeeperWriteQuorum").asInt());
        assertEquals(2, d.get("bookkeeperAckQuorum").asInt(), "all: every bookie of the write quorum");
        assertTrue(d.get("journalSyncData").asBoolean());
        assertEquals("5000", r.get("settings").get("clusterConf").get("metadataStoreSessionTimeoutMillis").asText());
        assertTrue(r.get("settings").get("clusterStartSeconds").asDouble() > 0);

        JsonNode nodes = r.get("broker").get("isolation").get("nodes");
        assertEquals(3, nodes.size());
        List<String> hostPorts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            assertTrue(nodes.get(i).asText().matches("10\\.77\\.\\d+\\." + (i + 1)), nodes.toString());
            hostPorts.add(nodes.get(i).asText().replace(".", "\\.") + ":\\d+");
        }
        String hosts = String.join(",", hostPorts);
        assertTrue(r.get("broker").get("url").asText().matches("pulsar\\+ssl://" + hosts), r.get("broker").toString());
        assertTrue(r.get("settings").get("adminUrl").asText().matches("https://" + hosts), r.toString());
        assertEquals("TLS, token", r.get("broker").get("security").asText());
        assertEquals("token", r.get("settings").get("login").asText());
        assertEquals("TLS and a login on the brokers' client and admin ports; plain over the hosts' links between "
                + "brokers and bookies and with ZooKeeper", r.get("settings").get("encryption").asText());
        String bookieLog = Files.readString(out.resolve("broker-logs").resolve("pulsar-bookie-2.log"));
        assertTrue(bookieLog.contains("zk://" + nodes.get(0).asText() + ":"), "the metadata store is on host 1");

        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("kill", event.get("kind").asText());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        int killed = event.get("node").asInt();
        assertTrue(killed >= 1 && killed <= 3, "a broker, not a bookie: " + event);
        String log = Files.readString(out.resolve("broker-logs").resolve("pulsar-broker-" + killed + ".log"));
        assertTrue(log.contains("PulsarService started"), "the killed broker's log is kept with the results");
        JsonNode cut = r.get("faults").get(1).get("event");
        assertEquals("done", cut.get("outcome").asText(), cut.toString());
        assertEquals(5, cut.get("powerCuts").get(0).get("node").asInt(), "bookie 2 is node 5: " + cut);
        assertTrue(r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
        assertTrue(Files.exists(out.resolve("broker-logs").resolve("forgetfs-5.log")), "bookie 2's disk");
        assertTrue(Files.notExists(out.resolve("broker-logs").resolve("forgetfs-1.log")), "a broker keeps no message");
        assertEquals(List.of(), ProcessHandle.current().descendants()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(command -> command.contains("org.apache.pulsar") || command.contains("org.apache.bookkeeper")
                        || command.contains("org.apache.zookeeper")).toList(), "no JVM of the cluster is left");
        assertEquals(List.of(), IsolateEndToEndTest.namespacesOf(ProcessHandle.current().pid()));
    }
}
