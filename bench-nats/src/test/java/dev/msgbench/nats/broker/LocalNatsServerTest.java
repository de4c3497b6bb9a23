package dev.msgbench.nats.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.nats.client.Connection;
import io.nats.client.Nats;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.testing.NeedsBroker;

/** Real nats-server processes: start, ready checks, clusters, errors and cleanup. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class LocalNatsServerTest {

    private static final Path DEBIAN_SERVER = Path.of("/usr/sbin/nats-server");

    @TempDir
    Path dir;

    @Test
    void aServerIsReadyOnLoopbackWithItsLogInTheLogDirAndLeavesNothingBehind() throws Exception {
        Path logs = dir.resolve("logs");
        int port;
        try (LocalNatsServer server = LocalNatsServer.start(
                NatsServerSpec.of(BrokerSpec.defaults().withLogDir(logs)).withJetStream(true), dir)) {
            assertTrue(server.url().matches("nats://127\\.0\\.0\\.1:\\d+"), server.url());
            port = Integer.parseInt(server.url().substring(server.url().lastIndexOf(':') + 1));
            assertTrue(accepts(port));
            assertTrue(server.monitor(1).healthy());
            try (Connection client = Nats.connect(server.url())) {
                assertEquals(NatsServerSpec.DEFAULT_MAX_PAYLOAD_BYTES, client.getServerInfo().getMaxPayload());
                assertTrue(client.getServerInfo().isJetStreamAvailable());
            }
            assertTrue(Files.readString(logs.resolve("nats-1.log")).contains("Server is ready"));
            assertTrue(server.version().matches("\\d+\\.\\d+\\.\\d+.*"), server.version());
            String storeDir = server.jetStreamConfig().get("store_dir").asText();
            assertTrue(Path.of(storeDir).startsWith(server.dataDir(1)), "JetStream stores in the node's data dir: " + storeDir);
        }
        assertFalse(accepts(port), "the server is stopped at close");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(logs), left.toList(), "the temp dir is removed, the logs stay");
        }
    }

    @Test
    void threeNodesFormAClusterWithRoutesBetweenAllOfThem() throws Exception {
        try (LocalNatsServer cluster = LocalNatsServer.start(
                NatsServerSpec.of(BrokerSpec.defaults().withNodes(3)).withJetStream(true), dir)) {
            assertEquals(3, cluster.nodeCount());
            assertEquals(3, cluster.url().split(",").length);
            for (int node = 1; node <= 3; node++) {
                assertTrue(cluster.monitor(node).routes() >= 2, "node " + node + " routes");
            }
        }
    }

    @Test
    void aSyncIntervalOnDebians29IsRefusedSayingHowToGetANewerServer() {
        NatsServerBinary debian = NatsServerBinary.at(DEBIAN_SERVER);
        assertEquals("2.9.10", debian.version());
        UserError e = assertThrows(UserError.class, () -> LocalNatsServer.start(NatsServerSpec.defaults()
                .withJetStream(true).withBinary(debian)
                .withBroker(BrokerSpec.defaults().withProps(Map.of("jetstream.sync_interval", "always"))), dir));
        assertEquals("--broker-prop jetstream.sync_interval needs nats-server 2.10 or newer, but /usr/sbin/nats-server "
                + "is 2.9.10: run scripts/setup where Go is installed (it builds a current server into ~/go/bin), set "
                + "MSGBENCH_NATS_SERVER to a newer nats-server, or pass --url to a 2.10+ server", e.getMessage());
    }

    @Test
    void debiansServerStillRunsJetStream() throws Exception {
        try (LocalNatsServer server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(true)
                .withBinary(NatsServerBinary.at(DEBIAN_SERVER)), dir)) {
            assertEquals("2.9.10", server.version());
            assertTrue(server.jetStreamConfig().has("store_dir"));
            assertFalse(server.jetStreamConfig().has("sync_interval"), "2.9 has no sync setting to report");
        }
    }

    @Test
    void aServerThatRejectsItsConfigIsReportedWithItsLogFile() {
        Path logs = dir.resolve("logs");
        UserError e = assertThrows(UserError.class, () -> LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("max_payload", "\"not a size\"")).withLogDir(logs)), dir));
        assertTrue(e.getMessage().matches("nats node 1 exited with code \\d+ during start; see "
                + java.util.regex.Pattern.quote(logs.resolve("nats-1.log").toString())), e.getMessage());
    }

    @Test
    void reservedAndMalformedSettingsAreRefusedBeforeStarting() {
        UserError reserved = assertThrows(UserError.class,
                () -> NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("cluster.name", "x"))));
        assertEquals("--broker-prop cluster.name cannot be set: msgbench chooses it for every run (ports, directories, "
                + "cluster routes); remove it", reserved.getMessage());
        UserError noJs = assertThrows(UserError.class,
                () -> NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("jetstream.sync_interval", "always"))));
        assertEquals("--broker-prop jetstream.sync_interval configures JetStream, which this server runs without; "
                + "use --system jetstream", noJs.getMessage());
        UserError malformed = assertThrows(UserError.class,
                () -> NatsServerSpec.of(BrokerSpec.defaults().withProps(Map.of("max payload", "1"))));
        assertEquals("--broker-prop must be KEY=VALUE on one line, KEY in nats-server's config (block.key for a "
                + "block), got 'max payload'", malformed.getMessage());
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void withBrokerCpusEveryServerOfAClusterRunsOnThoseCpusOnly() throws Exception {
        try (LocalNatsServer cluster = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withNodes(2)
                .withCpus(CpuList.parse("0"))), dir)) {
            for (int node = 1; node <= 2; node++) {
                assertEquals("0", cpusAllowed(cluster.pid(node)), "node " + node);
            }
        }
    }

    /** Read straight from the kernel, not through the code under test. */
    private static String cpusAllowed(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).trim())
                .findFirst().orElseThrow();
    }
}
