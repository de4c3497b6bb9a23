package dev.msgbench.cli.nativetool;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

import dev.msgbench.cli.Converters;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** What describes one native run, shared by describe and run. */
final class RequestOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--side", paramLabel = "SIDE", required = true,
            description = "publisher (the publisher's rate, no consumer) or subscriber (the subscriber's rate, one producer "
                    + "and one consumer).")
    NativeSide side;

    @Option(names = "--size", paramLabel = "SIZE", required = true, converter = Converters.Size.class,
            description = "Each message's whole size, as our --size counts it (its " + PayloadHeader.BYTES
                    + "-byte header included); the tool's payload is as large.")
    long sizeBytes;

    @Option(names = "--messages", paramLabel = "N",
            description = "Measured messages (default: the tool's own for the size; describe prints it).")
    Long messages;

    @Option(names = "--warmup-messages", paramLabel = "N", defaultValue = "0",
            description = "Messages before the measured ones, left out of both figures where both tools can; ignored where "
                    + "the tool cannot (describe prints the warm-up that applies) (default: ${DEFAULT-VALUE}).")
    long warmupMessages;

    @Option(names = "--url", paramLabel = "URL", description = "The broker, as `broker SYSTEM` prints it.")
    String url;

    @Option(names = "--run-name", paramLabel = "NAME",
            description = "The run's own topic, queue or channel (default: cmp- and the time in ns).")
    String runName;

    @Option(names = "--knob", paramLabel = "NAME=VALUE",
            description = "A setting of the comparison that a tool reads (repeatable; `list` shows each tool's, with its "
                    + "default). A knob of another system's tool is ignored, so one list serves every system.")
    Map<String, String> knobs = new LinkedHashMap<>();

    /** The request, checked: sizes and counts in range, every knob one that some tool takes. */
    NativeRequest request(NativeTool tool) {
        if (sizeBytes < PayloadHeader.BYTES) {
            throw new ParameterException(command.commandLine(), "--size must be at least " + PayloadHeader.BYTES
                    + " B (our header), got " + sizeBytes + " B");
        }
        if (messages != null && messages < 1) {
            throw new ParameterException(command.commandLine(), "--messages must be at least 1, got " + messages);
        }
        if (warmupMessages < 0) {
            throw new ParameterException(command.commandLine(), "--warmup-messages must be 0 or more, got " + warmupMessages);
        }
        TreeSet<String> known = new TreeSet<>();
        NativeTools.onClassPath().values().forEach(t -> t.knobs().forEach(k -> known.add(k.name())));
        for (String name : knobs.keySet()) {
            if (!known.contains(name)) {
                throw new ParameterException(command.commandLine(), "--knob " + name + ": no native tool takes it; they take "
                        + String.join(", ", known));
            }
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (NativeTool.Knob knob : tool.knobs()) {
            values.put(knob.name(), knobs.getOrDefault(knob.name(), knob.defaultValue()));
        }
        long count = messages != null ? messages : tool.defaultMessages(sizeBytes);
        long warmup = tool.warms(side) ? warmupMessages : 0;
        String name = runName != null ? runName : "cmp-" + nowNanos();
        return new NativeRequest(url, side, sizeBytes, count, warmup, name, values);
    }

    private static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
