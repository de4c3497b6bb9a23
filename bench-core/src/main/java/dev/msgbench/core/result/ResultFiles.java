package dev.msgbench.core.result;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;

/** Writes and reads the files of a results folder. */
public final class ResultFiles {

    public static final String RESULT_JSON = "result.json";

    /**
     * A transactional run's measured commit times, whole ({@link #writeHistogramLog}), beside commit.hgrm:
     * commits have no interval log, and merge must add the workers' histograms, never their percentiles.
     */
    public static final String COMMIT_LOG = "commit.hlog";

    /** HdrHistogram's percentile-distribution text prints values divided by this: ms from ns. */
    public static final double HGRM_UNIT_RATIO = 1e6;

    private static final int HGRM_TICKS_PER_HALF_DISTANCE = 5;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .build();

    private ResultFiles() {
    }

    public static ObjectMapper json() {
        return JSON;
    }

    /**
     * Writes result.json whole or not at all: a reader never sees half a file, even if we die
     * mid-write or the machine loses power after (the file and the rename are made durable).
     *
     * @throws FileNotWritten when the disk refuses it (full, read-only); nothing of it is left
     */
    public static void writeResult(Path dir, RunResult result) {
        Path file = dir.resolve(RESULT_JSON);
        Path tmp = dir.resolve(RESULT_JSON + ".tmp");
        try {
            Files.createDirectories(dir);
            try (FileOutputStream out = new FileOutputStream(tmp.toFile())) {
                JSON.writeValue(out, result);
                out.getFD().sync();
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            syncFolder(dir);
        } catch (IOException e) {
            deleteQuietly(tmp, e);
            throw new FileNotWritten(file, e, -1);
        }
        // the result is whole: the folder is no longer that of a run that may have been killed
        RunningMarker.delete(dir);
    }

    /** Makes a rename in {@code dir} durable: until its folder is synced, a power cut may undo it. */
    private static void syncFolder(Path dir) throws IOException {
        try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
            folder.force(true);
        }
    }

    /** Removes what a failed write left; a failure to remove it goes with the first. */
    private static void deleteQuietly(Path file, IOException first) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            first.addSuppressed(e);
        }
    }

    /** What a reader that goes on without a damaged result.json leaves out. */
    public static final String RESULT_LEFT_OUT = "its summary and settings";

    /**
     * Reads result.json of this version or of an earlier schema, which it reads as this one.
     *
     * @throws DamagedFile when it is cut short, not JSON, or a field holds a value of the wrong type
     */
    public static RunResult readResult(Path dir) {
        Path file = dir.resolve(RESULT_JSON);
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            if (tree == null || tree.isMissingNode()) {
                throw JsonDamage.empty(file, RESULT_LEFT_OUT);
            }
            if (tree instanceof ObjectNode object && tree.path("schemaVersion").asInt() == ResultSchemaV1.VERSION) {
                tree = ResultSchemaV1.upgrade(object);
            }
            return JSON.treeToValue(tree, RunResult.class);
        } catch (JsonProcessingException e) {
            throw JsonDamage.of(file, e, RESULT_LEFT_OUT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The HdrHistogram percentile distribution of a nanosecond histogram, values in ms.
     *
     * @throws FileNotWritten when the disk refuses it; nothing of it is left
     */
    public static void writeHgrm(Path file, Histogram histogram) {
        writeText(file, out -> histogram.outputPercentileDistribution(out, HGRM_TICKS_PER_HALF_DISTANCE, HGRM_UNIT_RATIO));
    }

    /**
     * A nanosecond histogram whole, as one interval of HdrHistogram's log format tagged {@code kind}'s
     * tag: unlike the .hgrm's percentile text it can be read back and added ({@code merge} adds the
     * workers' commit times so).
     *
     * @throws FileNotWritten when the disk refuses it; nothing of it is left
     */
    public static void writeHistogramLog(Path file, HistogramKind kind, Histogram histogram) {
        writeText(file, out -> {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("msgbench: the measured " + kind.tag() + " times, whole, in one interval (ns)");
            writer.outputLogFormatVersion();
            writer.outputLegend();
            Histogram tagged = histogram.copy();
            tagged.setTag(kind.tag());
            writer.outputIntervalHistogram(0, 0, tagged, HGRM_UNIT_RATIO);
        });
    }

    /**
     * What {@link #writeHistogramLog} wrote: its intervals added.
     *
     * @throws DamagedFile when it is not as the suite writes it
     */
    public static Histogram readHistogramLog(Path file, String leftOut) {
        Histogram sum = Recorders.newHistogram();
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                sum.add((Histogram) h);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (RuntimeException e) {
            // HdrHistogram's reader throws what it meets: a cut line, a bad base64, a double histogram
            throw new DamagedFile(file, "is damaged (" + e.getClass().getSimpleName() + ")", leftOut);
        }
        return sum;
    }

    private static void writeText(Path file, Consumer<PrintStream> body) {
        WatchedOutput bytes;
        try {
            bytes = new WatchedOutput(file, Files.newOutputStream(file));
        } catch (IOException e) {
            throw new FileNotWritten(file, e, -1);
        }
        // PrintStream swallows write errors: the watched stream keeps the first
        try (PrintStream out = new PrintStream(bytes, false, StandardCharsets.US_ASCII)) {
            body.accept(out);
        }
        FileNotWritten failed = bytes.failure(false);
        if (failed != null) {
            deleteQuietly(file, failed.getCause());
            throw failed;
        }
    }
}
