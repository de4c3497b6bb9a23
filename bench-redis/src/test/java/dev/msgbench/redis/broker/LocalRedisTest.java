package dev.msgbench.redis.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.redis.resp.Resp;

/** Debian's redis-server, started for real on free loopback ports. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class LocalRedisTest {

    @TempDir
    Path dir;

    @Test
    void oneNodeAnswersOnLoopbackWithoutPersistenceAndLeavesNothingBehind() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path logs = dir.resolve("logs");
        int port;
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults().withLogDir(logs)), temp)) {
            port = redis.port(1);
            assertEquals("redis://127.0.0.1:" + port, redis.url());
            assertEquals("PONG", Resp.call(port, "PING"));
            assertTrue(redis.version().matches("\\d+\\.\\d+\\.\\d+"), redis.version());
            assertEquals("no", config(port, "appendonly"));
            assertEquals("", config(port, "save"));
            assertEquals("127.0.0.1", config(port, "bind"));
            assertEquals(Map.of("save", "", "appendonly", "no"), redis.effectiveServerArgs());
            assertTrue(Files.size(logs.resolve("redis-1.log")) > 0, "the server logs into the log dir");
            assertEquals(redis.dataDir(1).toString(), config(port, "dir"), "the node's dir is its data dir");
        }
        assertThrows(IOException.class, () -> Resp.call(port, "PING"), "stopped on close");
        try (Stream<Path> left = Files.list(temp)) {
            assertEquals(0, left.count(), "the data dir is removed on close");
        }
        assertTrue(Files.exists(logs.resolve("redis-1.log")), "logs outside the temp dir are kept");
    }

    @Test
    void brokerPropsBecomeServerArgumentsAfterOursSoTheyWin() throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("appendonly", "yes");
        props.put("appendfsync", "always");
        props.put("save", "3600 1 300 100 60 10000");
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults().withProps(props)), dir)) {
            assertEquals("yes", config(redis.port(1), "appendonly"));
            assertEquals("always", config(redis.port(1), "appendfsync"));
            assertEquals("3600 1 300 100 60 10000", config(redis.port(1), "save"));
        }
    }

    @Test
    void threeNodesAreAPrimaryWithTwoReplicasInSync() throws Exception {
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults().withNodes(3)), dir)) {
            assertEquals(3, redis.nodeCount());
            String primary = Resp.call(redis.port(1), "INFO", "replication");
            assertEquals("master", Resp.infoField(primary, "role"));
            assertEquals("2", Resp.infoField(primary, "connected_slaves"));
            for (int node = 2; node <= 3; node++) {
                String replica = Resp.call(redis.port(node), "INFO", "replication");
                assertEquals("slave", Resp.infoField(replica, "role"));
                assertEquals("up", Resp.infoField(replica, "master_link_status"));
            }
            assertTrue(redis.pid(2) != redis.pid(1));

            redis.stopNode(2);
            assertEquals("exited with status 0", redis.exitDescription(2), "redis shuts down cleanly on SIGTERM");
            redis.restartNode(2, Duration.ofSeconds(20));
            assertEquals("up", Resp.infoField(Resp.call(redis.port(2), "INFO", "replication"), "master_link_status"),
                    "a restarted replica is in sync again");
        }
    }

    @Test
    void aFrozenNodeAnswersAgainAfterContAndAKilledOneAfterItsRestartEmptyWithoutPersistence() throws Exception {
        try (LocalRedis redis = LocalRedis.start(RedisBrokerSpec.defaults(), dir)) {
            redis.signal(1, Signal.STOP);
            assertThrows(IOException.class, () -> Resp.call(redis.port(1), "PING"));
            redis.signal(1, Signal.CONT);
            assertEquals("PONG", Resp.call(redis.port(1), "PING"));

            assertEquals("OK", Resp.call(redis.port(1), "SET", "kept", "no"));
            redis.killNode(1);
            assertEquals("killed by signal 9 (SIGKILL)", redis.exitDescription(1));
            assertThrows(IOException.class, () -> Resp.call(redis.port(1), "PING"));

            redis.restartNode(1, Duration.ofSeconds(20));

            assertNull(redis.exitDescription(1));
            assertEquals("PONG", Resp.call(redis.port(1), "PING"));
            assertNull(Resp.call(redis.port(1), "GET", "kept"), "save '' and appendonly no: nothing survives a kill");
        }
    }

    @Test
    void aSettingRedisRejectsFailsTheStartNamingTheLog() {
        Path logs = dir.resolve("logs");
        UserError e = assertThrows(UserError.class, () -> LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("no-such-setting", "1")).withLogDir(logs)), dir));
        assertEquals("redis node 1 exited with code 1 during start; see " + logs.resolve("redis-1.log"), e.getMessage());
    }

    @Test
    void aMissingProgramSaysWhatToInstall() {
        UserError e = assertThrows(UserError.class, () -> LocalRedis.start(RedisBrokerSpec.defaults()
                .withBinary(dir.resolve("redis-server")), dir));
        assertEquals("cannot find " + dir.resolve("redis-server") + ": install it (apt-get install redis-server) "
                + "or pass --url to measure a running Redis", e.getMessage());
        assertEquals("cannot find redis-server on the PATH, /usr/bin or /usr/sbin: install it (apt-get install redis-server) "
                + "or pass --url to measure a running Redis",
                assertThrows(UserError.class, () -> RedisBinary.locate(null, "", java.util.List.of())).getMessage());
    }

    @Test
    void settingsThatMsgbenchChoosesCannotBeOverridden() {
        UserError e = assertThrows(UserError.class,
                () -> RedisBrokerSpec.of(BrokerSpec.defaults().withProps(Map.of("port", "6379"))));
        assertEquals("--broker-prop port cannot be set: msgbench chooses it for every start (ports, directories, "
                + "replication, TLS and the login of --secure); remove it", e.getMessage());
        assertEquals("--broker-prop must be KEY=VALUE with a redis.conf setting as KEY (appendonly=yes), got '--save'",
                assertThrows(UserError.class,
                        () -> RedisBrokerSpec.of(BrokerSpec.defaults().withProps(Map.of("--save", "")))).getMessage());
        assertFalse(RedisBrokerSpec.RESERVED.contains("appendonly"));
    }

    private static String config(int port, String key) throws IOException {
        return Resp.configGet(port, key);
    }

    @Test
    void withBrokerCpusThePrimaryAndItsReplicaRunOnThoseCpusOnly() throws Exception {
        try (LocalRedis redis = LocalRedis.start(
                RedisBrokerSpec.of(BrokerSpec.defaults().withNodes(2).withCpus(CpuList.parse("0"))), dir)) {
            assertEquals("0", cpusAllowed(redis.pid(1)), "primary");
            assertEquals("0", cpusAllowed(redis.pid(2)), "replica");
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
