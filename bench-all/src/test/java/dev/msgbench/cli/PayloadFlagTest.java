package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** --payload on the command line: its refusals, and a loopback run of each kind that says what it sent. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PayloadFlagTest {

    private static final String EXPERIMENT = "--payload compressible:0.1: a labelled experiment, not the method's random "
            + "bodies; compression may gain from them, so compare these figures only with runs of the same payload";

    @TempDir
    Path dir;

    private CliRun refused(String... flags) {
        List<String> args = new ArrayList<>(List.of("throughput", "--messages", "10"));
        if (!List.of(flags).contains("--system")) {
            args.addAll(List.of("--system", "loopback"));
        }
        args.addAll(List.of(flags));
        args.addAll(List.of("--output", dir.resolve("out").toString()));
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), args.toArray(String[]::new));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        return run;
    }

    private static String line(CliRun run) {
        return run.err.strip().replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", "");
    }

    @Test
    void aShareOutsideZeroToOneIsOneLineNamingTheFlag() {
        assertEquals("error: Invalid value for option '--payload': compressible:R needs R from 0 to 1 (the random share "
                + "of each body), got 'compressible:1.5'", line(refused("--payload", "compressible:1.5")));
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        Path missing = dir.resolve("payload-1Kb.data");
        assertEquals("error: Invalid value for option '--payload': payload file " + missing + " does not exist",
                line(refused("--payload", "file:" + missing)));
    }

    @Test
    void aFileShorterThanTheHeaderIsOneLineNamingIt() throws Exception {
        Path tiny = Files.write(dir.resolve("tiny.data"), new byte[10]);
        assertEquals("error: Invalid value for option '--payload': payload file " + tiny + " is 10 B, shorter than the "
                + "32-byte header that replaces its first bytes", line(refused("--payload", "file:" + tiny)));
    }

    @Test
    void filesAndASizeAreRefusedTogether() throws Exception {
        Path file = Files.write(dir.resolve("one.data"), new byte[100]);
        assertEquals("error: --payload file:" + file + " sends each file as it is, of its own size; give either --size "
                + "or --payload file:, not both", line(refused("--payload", "file:" + file, "--size", "1KiB")));
    }

    @Test
    void aCodecIsRefusedOnASystemWithoutOneNamingTheSystem() {
        assertEquals("error: --compression applies to --system kafka only, not nats",
                line(refused("--system", "nats", "--compression", "lz4")));
        assertEquals("error: --pulsar-compression applies to --system pulsar only, not kafka",
                line(refused("--system", "kafka", "--pulsar-compression", "LZ4")));
        assertEquals("error: Invalid value for option '--pulsar-compression': must be NONE, LZ4, ZLIB, ZSTD or SNAPPY, "
                + "got 'brotli'", line(refused("--system", "pulsar", "--pulsar-compression", "brotli")));
    }

    @Test
    void aKafkaCodecOutsideKafkasIsRefusedNamingThem() {
        assertEquals("error: --compression must be one of none, gzip, snappy, lz4, zstd, got 'brotli'",
                line(refused("--system", "kafka", "--compression", "brotli")));
    }

    @Test
    @TakesSeconds
    void aCompressibleRunSaysItIsAnExperimentInTheResultAndTheSummary() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "5000", "--size", "1KiB",
                "--payload", "compressible:0.1", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("compressible:0.1", r.get("workload").get("payload").asText());
        assertEquals("compressible:0.1", r.get("run").get("payload").asText());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        List<String> warnings = new ArrayList<>();
        r.get("warnings").forEach(w -> warnings.add(w.asText()));
        assertTrue(warnings.contains(EXPERIMENT), warnings.toString());
        assertTrue(run.out.contains("payload: compressible:0.1 (a labelled experiment: bodies that compress, not random "
                + "ones)"), run.out);
        assertTrue(run.out.contains("warning: " + EXPERIMENT), run.out);
    }

    @Test
    @TakesSeconds
    void aRandomRunSaysNothingOfItsPayloadButWritesIt() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "2000", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("random", r.get("workload").get("payload").asText());
        assertFalse(run.out.contains("payload"), run.out);
    }

    @Test
    @TakesSeconds
    void filesAreSentInTurnAtTheirOwnSizes() throws Exception {
        Path small = Files.write(dir.resolve("small.data"), new byte[100]);
        Path large = Files.write(dir.resolve("large.data"), new byte[300]);
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "4000", "--payload",
                "file:" + small + "," + large, "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        JsonNode w = r.get("workload");
        assertEquals("file:" + small + "," + large, w.get("payload").asText());
        assertEquals(300, w.get("messageSizeBytes").asInt());
        JsonNode sizes = w.get("messageSizes");
        assertEquals("weights:100B=1,300B=1", sizes.get("distribution").asText());
        // in turn: exactly half of each
        assertEquals(2_000 * 100 + 2_000 * 300, sizes.get("sentBytes").asLong());
        assertEquals(sizes.get("sentBytes").asLong(), sizes.get("receivedBytes").asLong());
    }
}
