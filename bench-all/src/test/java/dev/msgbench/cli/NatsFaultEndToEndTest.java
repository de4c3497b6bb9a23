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

/** A real nats-server paused mid-run by --fault: the outage is on the timeline and nothing is lost. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsFaultEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void aOneSecondPauseOfTheServerIsRecordedMeasuredAndLosesNothing() throws Exception {
        Path out = dir.resolve("paused");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--rate", "1000", "--duration", "6s", "--warmup", "1s",
                "--fault", "pause=1s@2s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals(0, r.get("counts").get("unacknowledgedLost").asLong() + r.get("counts").get("acknowledgedLost").asLong());
        assertEquals(7_000, r.get("counts").get("received").asLong());
        assertEquals(1, r.get("faults").size());
        JsonNode fault = r.get("faults").get(0);
        JsonNode event = fault.get("event");
        assertEquals("pause", event.get("kind").asText());
        assertEquals(1, event.get("node").asInt());
        assertEquals("done", event.get("outcome").asText());
        double asked = event.get("askedAtSeconds").asDouble();
        assertTrue(asked >= 2.0 && asked < 2.2, event.toString());
        double ended = event.get("endedAtSeconds").asDouble();
        assertTrue(ended >= 3.0 && ended < 3.3, event.toString());
        // a stopped server delivers nothing; TCP may add a little after the resume
        double gap = fault.get("longestNoDeliverySeconds").asDouble();
        assertTrue(gap > 0.8 && gap < 2.5, fault.toString());
        assertTrue(fault.get("maxLatencyAfterMs").asDouble() > 800, fault.toString());
        String hlog = Files.readString(out.resolve("latency.hlog"));
        assertTrue(hlog.contains("#[fault pause node=1 asked 2."), hlog.lines().filter(l -> l.startsWith("#")).toList()
                .toString());
        assertTrue(run.out.contains("  fault pause=1s@2s (node 1): asked 2."), run.out);
    }

    /** A server that never comes back ends the run after --fault-timeout, saying the broker is gone, results kept. */
    @Test
    void aServerKilledForGoodEndsTheRunAfterTheFaultTimeoutAndTheRunSaysTheBrokerIsGone() throws Exception {
        Path out = dir.resolve("gone");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--rate", "500", "--duration", "30s", "--warmup", "1s",
                "--fault", "kill@2s:restart-after=never", "--fault-timeout", "3s", "--output", out.toString());

        assertEquals(ExitCode.RUN_FAILED.code(), run.exitCode, run.toString());
        assertTrue(run.err.contains("the local nats broker is gone: node 1 killed by signal 9 (SIGKILL)\n"), run.err);
        assertTrue(run.err.contains("error: the run failed: FaultTimeoutException: nothing delivered for "), run.err);
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertTrue(r.get("status").asText().startsWith("failed"), r.get("status").toString());
        assertTrue(r.get("counts").get("received").asLong() >= 1_000, r.get("counts").toString());
    }
}
