package dev.msgbench.core.run;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.RateSchedule;

/**
 * A {@link RunSpec} as JSON (result.json's {@code run}) and back. Values the flags write as text
 * (sizes, a rate schedule, keys, faults, CPUs) are written as that text and parsed again, so the
 * file reads as the command line does; times are ISO-8601 durations, exact to the nanosecond.
 */
public final class RunSpecJson {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private RunSpecJson() {
    }

    /** The spec as a tree of maps, lists, strings, numbers and booleans, in a stable order. */
    public static Map<String, Object> toMap(RunSpec spec) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", spec.command());
        m.put("system", spec.systemName());
        m.put("pacing", pacing(spec.pacing()));
        m.put("sizes", spec.sizes().spec());
        m.put("payload", spec.payload().spec());
        m.put("producers", spec.producers());
        m.put("consumers", spec.consumers());
        m.put("seed", spec.seed());
        m.put("drainTimeout", spec.drainTimeout().toString());
        m.put("readyTimeout", spec.readyTimeout().toString());
        m.put("outputDir", spec.outputDir().toString());
        m.put("progress", spec.progress());
        m.put("broker", spec.broker());
        m.put("cpus", spec.cpus() == null ? null : spec.cpus().toString());
        Map<String, Object> faults = new LinkedHashMap<>();
        faults.put("faults", spec.faults().faults().stream().map(FaultSpec::text).toList());
        faults.put("timeout", spec.faults().faultTimeout().toString());
        m.put("faults", faults);
        m.put("producerThreads", spec.sharing().producerThreads());
        m.put("consumerConnections", spec.sharing().consumerConnections());
        m.put("topics", spec.destinations().topics());
        m.put("subscriptionsPerTopic", spec.destinations().subscriptionsPerTopic());
        m.put("keys", spec.keys().spec());
        m.put("keyCount", spec.keys().count());
        m.put("backlog", spec.backlog() == null ? null
                : Map.of("messages", spec.backlog().messages(), "bytes", spec.backlog().bytes()));
        m.put("worker", spec.worker() == null ? null : worker(spec.worker()));
        m.put("startAt", spec.startAt() == null ? null : startAt(spec.startAt()));
        return m;
    }

    /**
     * The spec that {@link #toMap} wrote.
     *
     * @throws IllegalArgumentException naming the field that is missing or wrong
     */
    public static RunSpec fromJson(JsonNode json) {
        try {
            MessageSizes sizes = MessageSizes.parse(text(json, "sizes"));
            List<FaultSpec> faults = new ArrayList<>();
            for (JsonNode fault : required(required(json, "faults"), "faults")) {
                faults.add(FaultSpec.parse(fault.asText()));
            }
            JsonNode backlog = json.path("backlog");
            return new RunSpec(text(json, "command"), text(json, "system"), pacing(required(json, "pacing")),
                    sizes.maxBytes(), required(json, "producers").asInt(), required(json, "consumers").asInt(),
                    required(json, "seed").asLong(), duration(json, "drainTimeout"), duration(json, "readyTimeout"),
                    Path.of(text(json, "outputDir")), required(json, "progress").asBoolean(), map(json.path("broker")),
                    json.path("cpus").isTextual() ? CpuList.parse(json.get("cpus").asText()) : null,
                    new FaultPlan(faults, duration(required(json, "faults"), "timeout")), sizes,
                    new ClientSharing(required(json, "producerThreads").asInt(), required(json, "consumerConnections").asInt()),
                    new Destinations(required(json, "topics").asInt(), required(json, "subscriptionsPerTopic").asInt()),
                    RecordKeys.parse(text(json, "keys"), required(json, "keyCount").asInt()),
                    backlog.isObject() ? new Backlog(backlog.path("messages").asLong(), backlog.path("bytes").asLong()) : null,
                    json.path("worker").isObject() ? worker(json.get("worker")) : null,
                    json.path("startAt").isObject() ? startAt(json.get("startAt")) : null,
                    // files are read again, as the command line read them; older results had random payloads only
                    json.path("payload").isTextual() ? PayloadContent.parse(json.get("payload").asText(), Integer.MAX_VALUE)
                            : PayloadContent.RANDOM);
        } catch (RuntimeException e) {
            throw e instanceof IllegalArgumentException ? e
                    : new IllegalArgumentException("not a run description: " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> pacing(Pacing pacing) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (pacing instanceof Pacing.FixedRate fixed) {
            m.put("kind", "fixedRate");
            m.put("rateMsgsPerSec", fixed.rateMsgsPerSec());
            m.put("arrival", fixed.arrival().label());
            m.put("warmup", fixed.warmup().toString());
            m.put("duration", fixed.duration().toString());
            m.put("autoWarmup", fixed.autoWarmup());
            m.put("rateSchedule", fixed.schedule() == null ? null : fixed.schedule().spec());
        } else {
            Pacing.Unpaced unpaced = (Pacing.Unpaced) pacing;
            m.put("kind", "unpaced");
            m.put("messages", unpaced.messages());
            m.put("maxOutstanding", unpaced.maxOutstanding());
            m.put("timeLimit", unpaced.timeLimit().toString());
            m.put("consumeAfterProduce", unpaced.consumeAfterProduce());
            m.put("warmupMessages", unpaced.warmupMessages());
        }
        return m;
    }

    private static Pacing pacing(JsonNode json) {
        String kind = text(json, "kind");
        if (kind.equals("fixedRate")) {
            Arrival arrival = Arrival.valueOf(text(json, "arrival").toUpperCase(Locale.ROOT));
            Duration warmup = duration(json, "warmup");
            if (json.path("rateSchedule").isTextual()) {
                return Pacing.FixedRate.scheduled(RateSchedule.parse(json.get("rateSchedule").asText()), arrival, warmup);
            }
            return new Pacing.FixedRate(required(json, "rateMsgsPerSec").asDouble(), arrival, warmup,
                    duration(json, "duration"), required(json, "autoWarmup").asBoolean());
        }
        if (kind.equals("unpaced")) {
            return new Pacing.Unpaced(required(json, "messages").asLong(), required(json, "maxOutstanding").asInt(),
                    duration(json, "timeLimit"), required(json, "consumeAfterProduce").asBoolean(),
                    required(json, "warmupMessages").asLong());
        }
        throw new IllegalArgumentException("pacing.kind must be fixedRate or unpaced, got '" + kind + "'");
    }

    private static Map<String, Object> worker(WorkerRole worker) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", worker.index());
        m.put("count", worker.count());
        m.put("firstStream", worker.firstStream());
        m.put("totalStreams", worker.totalStreams());
        m.put("recorded", worker.recorded());
        return m;
    }

    private static WorkerRole worker(JsonNode json) {
        return new WorkerRole(required(json, "index").asInt(), required(json, "count").asInt(),
                required(json, "firstStream").asInt(), required(json, "totalStreams").asInt(), map(json.path("recorded")));
    }

    private static Map<String, Object> startAt(StartAt at) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("instant", at.instant().toString());
        m.put("tolerance", at.tolerance().toString());
        m.put("clockSync", at.clockSync());
        return m;
    }

    private static StartAt startAt(JsonNode json) {
        return new StartAt(Instant.parse(text(json, "instant")), duration(json, "tolerance"), map(json.path("clockSync")));
    }

    private static JsonNode required(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("run description: no " + field);
        }
        return value;
    }

    private static String text(JsonNode json, String field) {
        return required(json, field).asText();
    }

    private static Duration duration(JsonNode json, String field) {
        return Duration.parse(text(json, field));
    }

    private static Map<String, Object> map(JsonNode json) {
        return json.isObject() ? ResultFiles.json().convertValue(json, MAP) : Map.of();
    }
}
