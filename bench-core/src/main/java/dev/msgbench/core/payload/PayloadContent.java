package dev.msgbench.core.payload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.msgbench.core.units.Sizes;

/**
 * What each message holds after its header. Random bytes are the default and the method's rule:
 * no compressor (client, broker or disk) can flatter a system. The other two exist to measure
 * what compression does, and a run with them is a labelled experiment ({@link #isRandom()} false):
 * <ul>
 *   <li>{@code compressible:R}: a share R (0 to 1) of each body random, the rest zeros, as
 *       OpenMessaging Benchmark's {@code randomBytesRatio} builds its payloads (random bytes
 *       first, zeros after);</li>
 *   <li>{@code file:PATH[,PATH...]}: OpenMessaging Benchmark's {@code payloadFile}: each message
 *       is one file's bytes, the files in turn, the header in place of the file's first
 *       {@value PayloadHeader#BYTES} bytes; the message size is the file's.</li>
 * </ul>
 * The header (run key, stream, sequence number, times) is written over the first bytes in every
 * mode, so latency and loss are counted the same way whatever the body.
 */
public sealed interface PayloadContent {

    /** The default: every body random. */
    PayloadContent RANDOM = new Random();

    /** As {@link #parse} reads it back: {@code random}, {@code compressible:0.1}, {@code file:a.bin,b.bin}. */
    String spec();

    /** False for a payload a compressor may gain from: a labelled experiment. */
    default boolean isRandom() {
        return this instanceof Random;
    }

    /**
     * @param text     {@code random}, {@code compressible:R} or {@code file:PATH[,PATH...]}
     * @param maxBytes the largest message a file may make
     * @throws IllegalArgumentException naming the rule and the value (or the file), in one line
     */
    static PayloadContent parse(String text, long maxBytes) {
        String value = text.trim();
        if (value.equals("random")) {
            return RANDOM;
        }
        if (value.startsWith(Compressible.PREFIX)) {
            return Compressible.parse(value);
        }
        if (value.startsWith(FromFiles.PREFIX)) {
            return FromFiles.read(value.substring(FromFiles.PREFIX.length()), maxBytes);
        }
        throw new IllegalArgumentException("expected random, compressible:R or file:PATH[,PATH...], got '" + text + "'");
    }

    /** Random bodies: slices of a pool of random bytes ({@link RandomPayloads}). */
    record Random() implements PayloadContent {
        @Override
        public String spec() {
            return "random";
        }
    }

    /** @param randomShare the share of each body that is random, 0 to 1; the rest is zeros */
    record Compressible(double randomShare) implements PayloadContent {

        static final String PREFIX = "compressible:";

        public Compressible {
            if (!(randomShare >= 0 && randomShare <= 1)) {
                throw new IllegalArgumentException("compressible:R needs R from 0 to 1 (the random share of each body), got "
                        + randomShare);
            }
        }

        static Compressible parse(String value) {
            String number = value.substring(PREFIX.length()).trim();
            double share;
            try {
                share = Double.parseDouble(number);
            } catch (NumberFormatException e) {
                share = Double.NaN;
            }
            if (!(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException("compressible:R needs R from 0 to 1 (the random share of each body), got '"
                        + value + "'");
            }
            return new Compressible(share);
        }

        @Override
        public String spec() {
            return PREFIX + (randomShare == Math.rint(randomShare) ? Long.toString((long) randomShare)
                    : Double.toString(randomShare));
        }
    }

    /**
     * @param paths    the files as given, sent in this order, over and over
     * @param contents each file's bytes, read once when the value was parsed
     */
    record FromFiles(List<Path> paths, List<byte[]> contents) implements PayloadContent {

        static final String PREFIX = "file:";

        public FromFiles {
            paths = List.copyOf(paths);
            contents = List.copyOf(contents);
            if (paths.isEmpty() || paths.size() != contents.size()) {
                throw new IllegalArgumentException("one content per file, at least one file: " + paths);
            }
        }

        static FromFiles read(String list, long maxBytes) {
            List<Path> paths = new ArrayList<>();
            List<byte[]> contents = new ArrayList<>();
            for (String item : list.split(",", -1)) {
                if (item.isBlank()) {
                    throw new IllegalArgumentException("file:PATH[,PATH...] names a file between each comma, got 'file:"
                            + list + "'");
                }
                Path path = Path.of(item.trim());
                long size;
                try {
                    size = Files.size(path);
                } catch (NoSuchFileException e) {
                    throw new IllegalArgumentException("payload file " + path + " does not exist");
                } catch (IOException e) {
                    throw new IllegalArgumentException("payload file " + path + " cannot be read: " + e.getMessage());
                }
                if (Files.isDirectory(path)) {
                    throw new IllegalArgumentException("payload file " + path + " is a directory, not a file");
                }
                if (size < PayloadHeader.BYTES) {
                    throw new IllegalArgumentException("payload file " + path + " is " + size + " B, shorter than the "
                            + PayloadHeader.BYTES + "-byte header that replaces its first bytes");
                }
                if (size > maxBytes) {
                    throw new IllegalArgumentException("payload file " + path + " is " + size + " B, more than a message's "
                            + Sizes.format(maxBytes));
                }
                try {
                    contents.add(Files.readAllBytes(path));
                } catch (IOException e) {
                    throw new IllegalArgumentException("payload file " + path + " cannot be read: " + e.getMessage());
                }
                paths.add(path);
            }
            return new FromFiles(paths, contents);
        }

        /** The files' sizes, each weighted by how many of the files have it: the files are sent in turn. */
        public MessageSizes sizes() {
            Map<Integer, Integer> counts = new TreeMap<>();
            for (byte[] content : contents) {
                counts.merge(content.length, 1, Integer::sum);
            }
            if (counts.size() == 1) {
                return MessageSizes.fixed(contents.get(0).length);
            }
            return MessageSizes.parse("weights:" + counts.entrySet().stream()
                    .map(e -> Sizes.format(e.getKey()) + "=" + e.getValue()).collect(Collectors.joining(",")));
        }

        @Override
        public String spec() {
            return PREFIX + paths.stream().map(Path::toString).collect(Collectors.joining(","));
        }
    }
}
