package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.testing.TakesSeconds;

/** tune --repeats for real on the in-JVM loopback (no broker): two sets, two runs each, interleaved, in fresh JVMs. */
class TuneRepeatsEndToEndTest {

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    @Timeout(300)
    void eachSetRunsItsRepeatsInterleavedAndTheTableShowsTheirSpread() throws Exception {
        CliRun run = CliRun.of("tune", "--jdk", System.getProperty("java.home"), "--sets", "G1,Parallel",
                "--repeats", "2", "--baseline", "G1", "--output", dir.toString(), "--", "--system", "loopback",
                "--rate", "500", "--warmup", "0s", "--duration", "1s");

        assertEquals(0, run.exitCode, run.toString());
        String feature = "jdk" + Runtime.version().feature();
        List<String> lines = run.out.lines().toList();
        assertEquals(List.of("[1/4] " + feature + " G1 run 1/2: -XX:+UseG1GC",
                "[2/4] " + feature + " Parallel run 1/2: -XX:+UseParallelGC",
                "[3/4] " + feature + " G1 run 2/2: -XX:+UseG1GC",
                "[4/4] " + feature + " Parallel run 2/2: -XX:+UseParallelGC"), lines.subList(0, 4));
        assertTrue(run.out.contains("runs complete         2 of 2"), run.toString());
        assertTrue(run.out.contains("p99 ms            no verdict (2 vs 2 runs)"), run.toString());
        for (String set : List.of("G1", "Parallel")) {
            for (int r = 1; r <= 2; r++) {
                assertTrue(Files.isRegularFile(dir.resolve(feature + "-" + set + "/run-" + r + "/result.json")), set + r);
            }
        }

        assertTrue(Files.readString(dir.resolve("tune.html")).contains("<h2>Each set over its runs</h2>"));
        JsonNode tune = new ObjectMapper().readTree(dir.resolve("tune.json").toFile());
        assertEquals(4, tune.path("rows").size());
        JsonNode parallel = tune.path("sets").get(1);
        assertEquals(feature + "-G1", parallel.path("baseline").asText());
        assertEquals(2, parallel.path("figures").path("p99 ms").path("runs").size());
        // the histograms of both runs added: every measured message of both, about 2 x 500
        assertTrue(parallel.path("addedLatencyMs").path("count").asDouble() >= 900, parallel.toString());
    }
}
