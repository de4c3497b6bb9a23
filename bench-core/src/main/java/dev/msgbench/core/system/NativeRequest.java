package dev.msgbench.core.system;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * One run of a native tool, as scripts/compare-native asks for it.
 *
 * @param url            the broker, as the suite's launcher printed it (kafka's host:port, nats://...)
 * @param side           which figure the run gives
 * @param sizeBytes      each message's whole size: the suite's size includes its 32-byte header, the
 *                       tool's payload is the same size
 * @param messages       the measured messages
 * @param warmupMessages messages before the measured ones, left out of the figure; 0 for a cold
 *                       run, and always where the tool cannot leave a warm-up out ({@link NativeTool#warms})
 * @param runName        the run's own topic, queue or channel name, so that runs share nothing
 * @param knobs          every knob of {@link NativeTool#knobs}, the defaults filled in
 */
public record NativeRequest(String url, NativeSide side, long sizeBytes, long messages, long warmupMessages,
                            String runName, Map<String, String> knobs) {

    public NativeRequest {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(runName, "runName");
        knobs = Map.copyOf(knobs);
    }

    /** A knob the tool declared; its default when it was not given. */
    public String knob(String name) {
        String value = knobs.get(name);
        if (value == null) {
            throw new IllegalStateException("knob " + name + " was not declared by the tool, or its default not filled in");
        }
        return value;
    }

    /** A knob that is a whole number of at least 1. */
    public int positiveKnob(String name) {
        String value = knob(name);
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below, as a value below 1 is
        }
        throw new UserError(Phrase.of("%s %s must be a whole number of at least 1, got '%s'", Setting.KNOB, name, value));
    }

    /** A knob that takes one of {@code choices}. */
    public String choiceKnob(String name, List<String> choices) {
        String value = knob(name);
        if (!choices.contains(value)) {
            throw new UserError(Phrase.of("%s %s must be %s, got '%s'", Setting.KNOB, name, String.join(" or ", choices), value));
        }
        return value;
    }
}
