package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.NeedsFuse;

/**
 * --fault slow-disk and disk-full against a real broker on forgetful disks: RabbitMQ with a durable
 * classic queue and publisher confirms, which confirms a persistent message once it is fsynced.
 * Times are bounded from below only: a busy machine may make anything slower.
 */
@NeedsBroker
@NeedsFuse
@ExtendWith(OwnTmpdir.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SickDiskEndToEndTest {

    @TempDir
    Path dir;

    /**
     * Every fsync 100 ms late for 3 s: the confirms that wait for one are that late, and so are the
     * messages sent behind them; nothing acknowledged is lost, nothing fails.
     */
    @Test
    void aSlowDiskMakesConfirmsWaitAtLeastTheDelayAndLosesNothing() throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--queue-type", "durable", "--acks", "1", "--rate", "500",
                "--duration", "6s", "--warmup", "0s", "--drain-timeout", "5s", "--fault", "slow-disk=100ms@2s:for=3s",
                "--output", out.toString());

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(ExitCode.OK.code(), run.exitCode, run.toString());
        assertEquals(0, r.get("counts").get("acknowledgedLost").asLong(), r.get("counts").toString());
        assertTrue(r.get("counts").get("acknowledged").asLong() > 2_000, r.get("counts").toString());
        JsonNode latencies = r.get("latenciesMs");
        double slowest = Math.max(latencies.get("latency").get("max").asDouble(), latencies.get("ack").get("max").asDouble());
        assertTrue(slowest >= 100, "a confirm waits for the slowed fsync: " + latencies);
        assertEquals(true, r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
        assertTrue(r.get("broker").get("forgetfulDisksWriteThrough") == null, "a slow disk keeps the page cache");
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("slow-disk", event.get("kind").asText(), event.toString());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertEquals(1, event.get("node").asInt());
        assertTrue(event.get("endedAtSeconds").asDouble() >= 5.0, "healed after for=3s: " + event);
        assertTrue(run.out.contains("  fault slow-disk=100ms@2s:for=3s (node 1): asked 2."), run.out);
        assertTrue(Files.readString(out.resolve("latency.hlog")).contains("#[fault slow-disk node=1 asked 2."));
    }

    /**
     * A full disk for 2 s under a broker that writes every persistent message: whatever the broker
     * does about it (RabbitMQ's disk alarm blocks the publishers), the run ends within the test's
     * timeout with its result, the fault recorded with its outcome, and the disk healed.
     */
    @Test
    void aFullDiskEndsWithAResultWhateverTheBrokerDoesAboutIt() throws Exception {
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--queue-type", "durable", "--acks", "1", "--rate", "500",
                "--duration", "6s", "--warmup", "0s", "--drain-timeout", "5s", "--fault-timeout", "20s", "--fault",
                "disk-full@2s:for=2s", "--output", out.toString());

        assertTrue(Files.isRegularFile(out.resolve("result.json")), run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(true, r.get("broker").get("forgetfulDisksWriteThrough").asBoolean(), r.get("broker").toString());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("disk-full", event.get("kind").asText(), event.toString());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertTrue(event.get("endedAtSeconds").asDouble() >= 4.0, "space back after for=2s: " + event);
        assertTrue(run.out.contains("  fault disk-full@2s:for=2s (node 1): asked 2."), run.out + run.err);
    }
}
