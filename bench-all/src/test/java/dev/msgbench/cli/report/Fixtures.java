package dev.msgbench.cli.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.core.time.Arrival;

/** Results folders written by the core's own writers: a short engine run against the in-memory system. */
public final class Fixtures {

    /** Kafka's durability settings as result.json has them, at the default flush and at an fsync per message. */
    public static final Map<String, Object> KAFKA_DEFAULT_FLUSH = Map.of("acks", "all", "replicationFactor", 3,
            "flush.messages", Long.MAX_VALUE);
    public static final Map<String, Object> AOF_EVERYSEC = Map.of("appendonly", "yes", "appendfsync", "everysec");
    public static final Map<String, Object> KAFKA_FLUSH_EACH = Map.of("acks", "all", "replicationFactor", 3,
            "flush.messages", 1);

    private Fixtures() {
    }

    /**
     * 0.5 s of warm-up and 1.5 s measured at 200 msg/s, each publish taking {@code serviceMicros}, on
     * a fake clock: it takes milliseconds, and every latency is exactly the service time.
     */
    public static Path run(Path dir, String system, long serviceMicros) throws Exception {
        ManualClock clock = new ManualClock(0);
        ShortRuns.onFakeClock(new InMemorySystem(clock).answeringIn(serviceMicros * 1000), clock, dir, 200, 256,
                Duration.ofMillis(500), Duration.ofMillis(1500));
        editResult(dir, json -> json.put("system", system));
        return dir;
    }

    public static Path run(Path dir, String system, InMemorySystem inMemory) throws Exception {
        ShortRuns.run(inMemory, dir, 200, 256, 1, 1, Duration.ofMillis(500), Duration.ofMillis(1500));
        editResult(dir, json -> json.put("system", system));
        return dir;
    }

    /** A nanosecond histogram of one value at each whole ms from 1 to {@code maxMs}: commit times, say. */
    public static Histogram eachMillisUpTo(int maxMs) {
        Histogram histogram = Recorders.newHistogram();
        for (int ms = 1; ms <= maxMs; ms++) {
            histogram.recordValue(ms * 1_000_000L);
        }
        return histogram;
    }

    /** Changes result.json in place, as a later version of a run would have written it. */
    public static void editResult(Path dir, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode json = (ObjectNode) ResultFiles.json().readTree(dir.resolve(ResultFiles.RESULT_JSON).toFile());
        edit.accept(json);
        ResultFiles.json().writeValue(dir.resolve(ResultFiles.RESULT_JSON).toFile(), json);
    }

    /** Changes result.json's broker object in place (made if the run had none). */
    public static void editBroker(Path dir, Consumer<ObjectNode> edit) throws IOException {
        editResult(dir, json -> edit.accept(json.get("broker") instanceof ObjectNode broker ? broker : json.putObject("broker")));
    }

    /**
     * 1 s of warm-up and 5 s measured at 200 msg/s on a fake clock, with {@code fault} acting on
     * the in-memory system {@code system} makes: a pause holds every delivery until it ends, a
     * kill until the node's restart.
     */
    public static Path faulted(Path dir, String fault, Function<ManualClock, InMemorySystem> system) throws Exception {
        ManualClock clock = new ManualClock(0);
        InMemorySystem inMemory = system.apply(clock);
        RunSpec spec = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(200, Arrival.UNIFORM, Duration.ofSeconds(1),
                Duration.ofSeconds(5)), 256, 1, 1, 7, Duration.ofSeconds(10), Duration.ofSeconds(5), dir, false,
                Map.of("local", true)).withFaults(new FaultPlan(List.of(FaultSpec.parse(fault)), FaultPlan.DEFAULT_TIMEOUT));
        FakeClockRuns.loadRun(spec, inMemory, inMemory, clock, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).execute();
        return dir;
    }

    /** Sets result.json's system and durability settings, as a run of that system at that setting would have them. */
    public static void setting(Path dir, String system, Map<String, Object> durability) throws IOException {
        editResult(dir, json -> {
            json.put("system", system);
            json.set("durability", ResultFiles.json().valueToTree(durability));
        });
    }

    /**
     * Gives a run's result a fault done at 1 s, as {@code --fault} value {@code fault} of {@code
     * kind} would leave it (a power-loss as the power-loss fault will), and {@code acknowledgedLost}
     * of its acknowledged messages lost.
     */
    public static void lostAfter(Path dir, String kind, String fault, long acknowledgedLost) throws IOException {
        editResult(dir, json -> {
            ArrayNode faults = json.putArray("faults");
            ObjectNode event = faults.addObject().putObject("event");
            event.put("fault", fault).put("kind", kind).put("askedAtSeconds", 1.0).put("doneAtSeconds", 1.001)
                    .put("endedAtSeconds", 3.0).put("outcome", "done");
            if (!fault.contains("node=all")) {
                event.put("node", 1);
            }
            ((ObjectNode) json.get("counts")).put("acknowledgedLost", acknowledgedLost);
        });
    }

    /**
     * A sweep's folder as sweep writes it, objective p99 <= 5 ms: a judged step per row of {@code
     * steps} ({rate, p50, p99, p99.9} in msg/s and ms; a rate given twice is a repeat), each a run
     * of the in-memory system with those latencies and {@code durability}, and {@code system}'s
     * knee at {@code knee}.
     */
    public static Path sweep(Path dir, String system, Map<String, Object> durability, double knee, double[]... steps)
            throws Exception {
        ObjectNode json = ResultFiles.json().createObjectNode();
        json.putObject("objective").put("statistic", "p99").put("limitMs", 5.0).put("text", "p99 <= 5 ms");
        ArrayNode stepsJson = json.putArray("steps");
        for (int i = 0; i < steps.length; i++) {
            double[] step = steps[i];
            String name = String.format(java.util.Locale.US, "%02d-%s-%d", i + 1, system, (long) step[0]);
            Path folder = run(dir.resolve(name), system, 200);
            setting(folder, system, durability);
            editResult(folder, result -> {
                ((ObjectNode) result.get("workload")).put("rateMsgsPerSec", step[0]);
                ((ObjectNode) result.get("latenciesMs").get("latency")).put("p50", step[1]).put("p99", step[2])
                        .put("p99.9", step[3]);
            });
            stepsJson.addObject().put("number", i + 1).put("system", system).put("phase", "ramp").put("targetRate", step[0])
                    .put("judged", true).put("passed", step[0] <= knee).put("folder", "results/sweep/" + name);
        }
        json.putObject("knee").putObject(system).put("rate", knee).put("confirmed", true).put("end", "bracketed");
        ResultFiles.json().writeValue(dir.resolve("sweep.json").toFile(), json);
        return dir;
    }

    /**
     * The folders of a price-of-safety workload: Kafka at its default flush (2 ms a message) and at
     * an fsync per message (4 ms), each a run at 200 msg/s, one with a power loss of one node and
     * one with a power loss of every node; the default flush loses 57 of its 400 acknowledged
     * messages to the power loss of every node, the other none.
     */
    public static Path priceOfSafety(Path dir) throws Exception {
        safetyCell(dir.resolve("01-kafka-default"), KAFKA_DEFAULT_FLUSH, 2000, null, 0);
        safetyCell(dir.resolve("02-kafka-default-power-loss-one"), KAFKA_DEFAULT_FLUSH, 2000, "power-loss@1s", 0);
        safetyCell(dir.resolve("03-kafka-default-power-loss-all"), KAFKA_DEFAULT_FLUSH, 2000, "power-loss@1s:node=all", 57);
        safetyCell(dir.resolve("04-kafka-flush"), KAFKA_FLUSH_EACH, 4000, null, 0);
        safetyCell(dir.resolve("05-kafka-flush-power-loss-one"), KAFKA_FLUSH_EACH, 4000, "power-loss@1s", 0);
        safetyCell(dir.resolve("06-kafka-flush-power-loss-all"), KAFKA_FLUSH_EACH, 4000, "power-loss@1s:node=all", 0);
        return dir;
    }

    private static void safetyCell(Path dir, Map<String, Object> durability, long serviceMicros, String powerLoss,
                                   long acknowledgedLost) throws Exception {
        setting(run(dir, "kafka", serviceMicros), "kafka", durability);
        if (powerLoss != null) {
            lostAfter(dir, "power-loss", powerLoss, acknowledgedLost);
        }
    }
}
