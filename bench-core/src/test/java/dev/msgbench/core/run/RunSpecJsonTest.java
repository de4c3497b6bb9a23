package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.RateSchedule;

/** The run description written to JSON and read back is the same description, to the nanosecond. */
@Timeout(30)
class RunSpecJsonTest {

    @TempDir
    Path dir;

    /** Every field away from its default, so that a field the JSON forgets cannot come back equal. */
    private RunSpec everythingSet() {
        MessageSizes sizes = MessageSizes.parse("weights:100=3,4KiB=1");
        return new RunSpec("e2e", "kafka", Pacing.FixedRate.scheduled(RateSchedule.parse("1000/s for 2s, 1000/s to 3000/s over 3s"),
                Arrival.POISSON, Duration.ofMillis(1500)), sizes.maxBytes(), 6, 3, 4242, Duration.ofNanos(1_234_567_891),
                Duration.ofSeconds(7), dir.resolve("out"), true, Map.of("local", true, "nodes", 3, "brokerProps",
                Map.of("log.flush.interval.messages", "1")), CpuList.parse("0-1"),
                new FaultPlan(List.of(FaultSpec.parse("kill@2s:node=leader:restart-after=1s"),
                        FaultSpec.parse("exec@3s=echo hi")), Duration.ofSeconds(45)), sizes, new ClientSharing(2, 3),
                new Destinations(3, 2), RecordKeys.parse("zipf:1.1", 50), new Backlog(0, 1 << 20),
                new WorkerRole(1, 2, 3, 6, Map.of("totalProducers", 6, "args", List.of("e2e", "--workers", "2"))),
                new StartAt(Instant.parse("2026-11-29T12:00:00.123456789Z"), Duration.ofMillis(500),
                        Map.of("synchronized", true)), new PayloadContent.Compressible(0.25));
    }

    @Test
    void aDescriptionWithEveryFieldSetReadsBackTheSame() throws Exception {
        RunSpec spec = everythingSet();
        JsonNode json = ResultFiles.json().readTree(ResultFiles.json().writeValueAsString(RunSpecJson.toMap(spec)));
        RunSpec back = RunSpecJson.fromJson(json);

        assertEquals(RunSpecJson.toMap(spec), RunSpecJson.toMap(back));
        Pacing.FixedRate fixed = (Pacing.FixedRate) back.pacing();
        assertEquals(Arrival.POISSON, fixed.arrival());
        assertEquals(Duration.ofSeconds(5), fixed.duration());
        assertEquals(spec.pacing().toString(), back.pacing().toString());
        assertEquals(spec.drainTimeout(), back.drainTimeout());
        assertEquals(spec.messageSizeBytes(), back.messageSizeBytes());
        assertEquals(spec.sharing(), back.sharing());
        assertEquals(spec.destinations(), back.destinations());
        assertEquals(spec.backlog(), back.backlog());
        assertEquals(spec.worker(), back.worker());
        assertEquals(spec.startAt(), back.startAt());
        assertEquals(spec.cpus(), back.cpus());
        assertEquals("zipf:1.1", back.keys().spec());
        assertEquals(50, back.keys().count());
        assertEquals(List.of("kill@2s:node=leader:restart-after=1s", "exec@3s=echo hi"),
                back.faults().faults().stream().map(FaultSpec::text).toList());
        assertEquals(spec.broker(), back.broker());
        assertEquals(new PayloadContent.Compressible(0.25), back.payload());
    }

    @Test
    void filePayloadsReadBackWithTheFilesSizes() throws Exception {
        Path a = Files.write(dir.resolve("a.data"), new byte[100]);
        Path b = Files.write(dir.resolve("b.data"), new byte[300]);
        RunSpec spec = RunSpecs.unpaced(dir, 10, 64).withPayload(PayloadContent.parse("file:" + a + "," + b, 1 << 20));
        RunSpec back = RunSpecJson.fromJson(ResultFiles.json().valueToTree(RunSpecJson.toMap(spec)));

        assertEquals("file:" + a + "," + b, back.payload().spec());
        assertEquals("weights:100B=1,300B=1", back.sizes().spec());
        assertEquals(300, back.messageSizeBytes());
    }

    @Test
    void olderDescriptionsHadRandomPayloads() {
        Map<String, Object> map = new LinkedHashMap<>(RunSpecJson.toMap(RunSpecs.unpaced(dir, 10, 64)));
        map.remove("payload");
        assertSame(PayloadContent.RANDOM, RunSpecJson.fromJson(ResultFiles.json().valueToTree(map)).payload());
    }

    @Test
    void anUnpacedRunWithNothingOptionalReadsBackTheSame() throws Exception {
        RunSpec spec = RunSpecs.unpaced(dir, 10_000, 64);
        RunSpec back = RunSpecJson.fromJson(ResultFiles.json().valueToTree(RunSpecJson.toMap(spec)));

        assertEquals(spec.pacing(), back.pacing());
        assertEquals(RunSpecJson.toMap(spec), RunSpecJson.toMap(back));
        assertNull(back.backlog());
        assertNull(back.worker());
        assertNull(back.startAt());
        assertTrue(back.keys().isNone());
    }

    @Test
    void aMissingOrWrongFieldIsNamed() {
        Map<String, Object> map = new LinkedHashMap<>(RunSpecJson.toMap(RunSpecs.unpaced(dir, 10, 1)));
        map.remove("seed");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> RunSpecJson.fromJson(ResultFiles.json().valueToTree(map)));
        assertEquals("run description: no seed", missing.getMessage());

        map.put("seed", 1);
        map.put("pacing", Map.of("kind", "sometimes"));
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
                () -> RunSpecJson.fromJson(ResultFiles.json().valueToTree(map)));
        assertEquals("pacing.kind must be fixedRate or unpaced, got 'sometimes'", kind.getMessage());
    }

    /** result.json's run is the description the engine ran, and reads back as it. */
    @Test
    void resultJsonRecordsTheDescriptionTheRunWasGiven() throws Exception {
        ManualClock clock = new ManualClock(0);
        RunSpec spec = RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1))
                .withDestinations(new Destinations(1, 2));
        RunResult r = FakeClockRuns.loadRun(spec, new InMemorySystem(clock), clock,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).execute();

        JsonNode written = ResultFiles.json().readTree(dir.resolve("result.json").toFile());
        RunSpec back = RunSpecJson.fromJson(written.get("run"));
        assertEquals(RunSpecJson.toMap(spec), RunSpecJson.toMap(back));
        assertEquals(2, written.get("run").get("subscriptionsPerTopic").asInt());
        assertEquals(RunSpecJson.toMap(spec).keySet(), r.run().keySet());
    }
}
