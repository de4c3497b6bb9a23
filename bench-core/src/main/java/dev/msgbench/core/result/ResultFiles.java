package dev.msgbench.core.result;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Writes and reads the files of a results folder. */
public final class ResultFiles {

    public static final String RESULT_JSON = "result.json";

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

    public static void writeResult(Path dir, RunResult result) {
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(RESULT_JSON + ".tmp");
            JSON.writeValue(tmp.toFile(), result);
            // a reader never sees half a file, even if we die mid-write
            Files.move(tmp, dir.resolve(RESULT_JSON), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            // the result is whole: the folder is no longer that of a run that may have been killed
            RunningMarker.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(RESULT_JSON), e);
        }
    }

    /** Reads result.json of this version or of an earlier schema, which it reads as this one. */
    public static RunResult readResult(Path dir) {
        try {
            JsonNode tree = JSON.readTree(dir.resolve(RESULT_JSON).toFile());
            if (tree instanceof ObjectNode object && tree.path("schemaVersion").asInt() == ResultSchemaV1.VERSION) {
                tree = ResultSchemaV1.upgrade(object);
            }
            return JSON.treeToValue(tree, RunResult.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(RESULT_JSON), e);
        }
    }

    /** The HdrHistogram percentile distribution of a nanosecond histogram, values in ms. */
    public static void writeHgrm(Path file, Histogram histogram) {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII)) {
            histogram.outputPercentileDistribution(out, HGRM_TICKS_PER_HALF_DISTANCE, HGRM_UNIT_RATIO);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
