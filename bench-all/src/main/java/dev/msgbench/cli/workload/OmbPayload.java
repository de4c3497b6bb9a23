package dev.msgbench.cli.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.yaml.snakeyaml.nodes.Node;

import dev.msgbench.core.payload.PayloadContent;

/**
 * OMB's payload fields as {@code --payload}: with {@code useRandomizedPayloads: true}, a
 * {@code randomBytesRatio} below 1 is {@code compressible:R}; without it, {@code payloadFile} is
 * {@code file:PATH}, the message size then the file's. As OMB reads the file from the folder it
 * runs in, the file is looked for there, then beside the workload file and in the folder above
 * it (OMB's {@code payload/} sits beside its {@code workloads/}); not found, the run's payloads
 * are random, said in a warning.
 */
final class OmbPayload {

    private static final String FILE = "payloadFile";
    private static final String RATIO = "randomBytesRatio";
    private static final String RANDOMIZED = "useRandomizedPayloads";

    private OmbPayload() {
    }

    /** The {@code payload} setting, or null for random payloads (the default); what is not used is said in {@code warnings}. */
    static Setting setting(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, long messageSize,
            List<String> warnings) {
        boolean randomized = top.containsKey(RANDOMIZED) && doc.text(RANDOMIZED, top.get(RANDOMIZED)).equals("true");
        String ratio = top.containsKey(RATIO) ? doc.text(RATIO, top.get(RATIO)) : null;
        if (randomized) {
            if (top.containsKey(FILE)) {
                warnings.add(lines.get(FILE) + ": payloadFile ignored: useRandomizedPayloads is true (as in OMB)");
            }
            if (ratio == null || share(doc, top, ratio) == 1) {
                return null;
            }
            return new Setting("payload", text("compressible:" + ratio), lines.get(RATIO));
        }
        if (ratio != null && share(doc, top, ratio) != 1) {
            warnings.add(lines.get(RATIO) + ": randomBytesRatio " + ratio + " ignored: it applies with "
                    + "useRandomizedPayloads true only (as in OMB)");
        }
        if (!top.containsKey(FILE)) {
            if (top.containsKey(RANDOMIZED)) {
                warnings.add(lines.get(RANDOMIZED) + ": useRandomizedPayloads " + doc.text(RANDOMIZED, top.get(RANDOMIZED))
                        + " without a payloadFile: payloads are random bytes of messageSize");
            }
            return null;
        }
        String given = doc.text(FILE, top.get(FILE));
        List<Path> places = places(Path.of(doc.file()), given);
        Path found = places.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        if (found == null) {
            warnings.add(lines.get(FILE) + ": payloadFile " + given + " not found (looked for " + places.stream()
                    .map(Path::toString).collect(Collectors.joining(", ")) + "): payloads are random bytes of messageSize");
            return null;
        }
        try {
            long size = Files.size(found);
            if (size != messageSize) {
                warnings.add(lines.get(FILE) + ": payloadFile " + found + " is " + size + " B, not messageSize "
                        + messageSize + ": messages are the file's size");
            }
        } catch (java.io.IOException e) {
            // --payload reads the file again and names what is wrong with it
        }
        return new Setting("payload", text("file:" + found), lines.get(FILE));
    }

    /** Whether the setting replaces messageSize: a file's messages are the file's size. */
    static boolean isFile(Setting payload) {
        return payload != null && ((FlagValue.Scalar) payload.value()).text().startsWith("file:");
    }

    /** Where OMB's relative path may be: from the folder we run in, beside the workload, and above it. */
    private static List<Path> places(Path workload, String given) {
        Path path = Path.of(given);
        if (path.isAbsolute()) {
            return List.of(path);
        }
        Set<Path> places = new LinkedHashSet<>();
        places.add(path);
        Path folder = workload.toAbsolutePath().getParent();
        if (folder != null) {
            places.add(folder.resolve(path));
            if (folder.getParent() != null) {
                places.add(folder.getParent().resolve(path));
            }
        }
        return new ArrayList<>(places);
    }

    /** The ratio as --payload reads it, refused at its line when it is no share from 0 to 1. */
    private static double share(YamlDocument doc, Map<String, Node> top, String ratio) {
        try {
            return ((PayloadContent.Compressible) PayloadContent.parse("compressible:" + ratio, 0)).randomShare();
        } catch (IllegalArgumentException e) {
            throw doc.origin(top.get(RATIO)).error("'randomBytesRatio' must be from 0 to 1, got " + ratio);
        }
    }

    private static FlagValue.Scalar text(String text) {
        return new FlagValue.Scalar(text, FlagValue.Type.TEXT);
    }
}
