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

import dev.msgbench.core.testing.NeedsBroker;

/** tune for real: two flag sets on the running JDK, each a child JVM running a short NATS e2e. */
@NeedsBroker
class TuneEndToEndTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void eachFlagSetRunsInAFreshJvmAndLandsInOneTable() throws Exception {
        CliRun run = CliRun.of("tune", "--jdk", System.getProperty("java.home"), "--sets", "G1,Parallel",
                "--output", dir.toString(), "--", "--system", "nats", "--rate", "500", "--size", "1KiB",
                "--warmup", "1s", "--duration", "2s");

        assertEquals(0, run.exitCode, run.toString());
        String feature = "jdk" + Runtime.version().feature();
        List<String> lines = run.out.lines().toList();
        assertEquals("[1/2] " + feature + " G1: -XX:+UseG1GC", lines.get(0));
        assertEquals("[2/2] " + feature + " Parallel: -XX:+UseParallelGC", lines.get(1));
        assertTrue(lines.get(3).startsWith(feature + "  G1        complete"), run.toString());
        assertTrue(lines.get(4).startsWith(feature + "  Parallel  complete"), run.toString());

        JsonNode tune = new ObjectMapper().readTree(dir.resolve("tune.json").toFile());
        assertEquals(2, tune.path("rows").size());
        for (JsonNode row : tune.path("rows")) {
            assertTrue(row.path("p99Ms").asDouble() > 0, row.toString());
            assertTrue(row.path("hiccupMaxMs").asDouble() > 0, row.toString());
        }
        // the flags reached the child: its own result.json records them
        JsonNode child = new ObjectMapper().readTree(dir.resolve(feature + "-Parallel/result.json").toFile());
        assertTrue(child.path("environment").path("jvmFlags").toString().contains("-XX:+UseParallelGC"), child.toString());
        assertTrue(Files.exists(dir.resolve("tune.txt")));
        assertTrue(Files.exists(dir.resolve("tune.html")));
    }

    @Test
    @Timeout(120)
    void aPasswordInTheWorkloadsUrlIsInNeitherTheTableNorAnyFileAFailedRowLeaves() throws Exception {
        String secret = "Tune-Secret-55ab";
        CliRun run = CliRun.of("tune", "--jdk", System.getProperty("java.home"), "--sets", "G1", "--output",
                dir.toString(), "--", "--system", "redis", "--url", "redis://u:" + secret + "@127.0.0.1:1",
                "--warmup", "0s", "--duration", "1s");

        assertTrue(Files.readString(dir.resolve("tune.txt")).contains("redis://u:***@127.0.0.1:1"), run.toString());
        SecretLeaks.assertAbsent(secret, run, dir);
    }
}
