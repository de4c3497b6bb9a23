package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** e2e --system pulsar --brokers 3: a local cluster of 3 brokers on 3 bookies, run in-process. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@NeedsBroker
class PulsarClusterEndToEndTest {

    @TempDir
    Path dir;

    /** One cluster start: ZooKeeper, 3 bookies and 3 brokers take 45 s or more to start on 2 busy cores. */
    @Test
    void withAcksAllEveryBookieHasEachMessageAndTheTopicsBrokerKilledMidRunLosesNoAcknowledgedMessage()
            throws Exception {
        Path out = dir.resolve("fault");
        CliRun run = CliRun.of("e2e", "--system", "pulsar", "--brokers", "3", "--acks", "all", "--rate", "200",
                "--duration", "20s", "--warmup", "1s", "--fault", "kill@3s:node=leader", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        assertEquals(0, r.get("counts").get("acknowledgedLost").asLong(), r.get("counts").toString());
        assertTrue(r.get("counts").get("acknowledged").asLong() > 2_000, r.get("counts").toString());
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertEquals("namespace public/default", d.get("persistencePolicy").asText());
        assertEquals(3, d.get("bookkeeperEnsemble").asInt(), "read back from the broker");
        assertEquals(3, d.get("bookkeeperWriteQuorum").asInt());
        assertEquals(3, d.get("bookkeeperAckQuorum").asInt(), "all: every bookie of the write quorum");
        assertTrue(d.get("journalSyncData").asBoolean());
        assertEquals("5000", r.get("settings").get("clusterConf").get("metadataStoreSessionTimeoutMillis").asText());
        assertTrue(r.get("settings").get("clusterStartSeconds").asDouble() > 0);
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("kill", event.get("kind").asText());
        int killed = event.get("node").asInt();
        assertTrue(killed >= 1 && killed <= 3, "a broker, not a bookie: " + event);
        String log = Files.readString(out.resolve("broker-logs").resolve("pulsar-broker-" + killed + ".log"));
        assertTrue(log.contains("PulsarService started"), "the killed broker's log is kept with the results");
    }
}
