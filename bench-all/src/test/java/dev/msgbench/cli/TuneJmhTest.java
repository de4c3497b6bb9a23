package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.cli.report.Report;
import dev.msgbench.core.testing.TakesSeconds;

/** tune --jmh: its refusals, each one line and exit 2 before anything runs, and one real short run. */
class TuneJmhTest {

    @TempDir
    Path dir;

    private void assertRefused(String line, String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + line + "\n", run.err, run.toString());
        assertFalse(Files.exists(dir.resolve("tune.json")), run.toString());
    }

    @Test
    void jmhSettingsWithoutJmhAreRefused() {
        assertRefused("tune: --jmh-include applies with --jmh or --jmh-only only; add one of them",
                "tune", "--jmh-include", "Recorder", "--output", dir.toString());
        assertRefused("tune: --jmh-args applies with --jmh or --jmh-only only; add one of them",
                "tune", "--jmh-args", "-f 2", "--output", dir.toString());
    }

    @Test
    void jmhArgsThatTuneSetsPerFlagSetAreRefused() {
        assertRefused("tune: --jmh-args holds -jvmArgs, which tune sets per flag set (-jvm, -jvmArgsAppend, "
                + "-rf json, -rff); leave it out", "tune", "--jmh", "--jmh-args", "-f 1 -jvmArgs -Xmx1g", "--output",
                dir.toString());
    }

    @Test
    void jmhOnlyTakesNoE2eArguments() {
        assertRefused("tune: --jmh-only runs no e2e cells, so takes no e2e arguments after --; drop them, or give "
                + "--jmh to run both", "tune", "--jmh-only", "--output", dir.toString(), "--", "--system", "loopback");
    }

    @Test
    void aModuleWithoutBenchmarksIsRefusedNamingTheFlag() {
        Path root = Path.of("").toAbsolutePath().getParent();
        assertRefused("--jmh-module bench-nowhere: no such module with test sources in " + root + "; give one of "
                + "bench-core, bench-kafka, bench-nats, bench-rabbit, bench-redis", "tune", "--jmh-only", "--jmh-module",
                "bench-nowhere", "--output", dir.toString());
    }

    /**
     * The one real run: Maven builds bench-core's benchmarks, then each set's e2e cell on the
     * loopback and JMH's fork of wholePath at 100 B, one short warm-up and three 100 ms iterations.
     */
    @Test
    @TakesSeconds
    @Timeout(180)
    void eachFlagSetGetsItsJmhScoresWithErrorBarsBesideItsE2eRow() throws Exception {
        CliRun run = CliRun.of("tune", "--jmh", "--jdk", System.getProperty("java.home"), "--sets", "G1,Parallel",
                "--baseline", "G1", "--jmh-include", "EnginePathBenchmark\\.wholePath$", "--jmh-args",
                "-f 1 -wi 1 -w 100ms -i 3 -r 100ms -p sizeBytes=100", "--output", dir.toString(), "--", "--system",
                "loopback", "--rate", "500", "--warmup", "0s", "--duration", "1s");

        assertEquals(0, run.exitCode, run.toString());
        String feature = "jdk" + Runtime.version().feature();
        List<String> lines = run.out.lines().toList();
        assertEquals("[jmh] building bench-core's benchmarks with Maven (log: " + dir.resolve("jmh-build.log") + ")",
                lines.get(0));
        assertEquals("[1/2] " + feature + " G1: -XX:+UseG1GC", lines.get(1));
        assertEquals("[2/2] " + feature + " Parallel: -XX:+UseParallelGC", lines.get(2));
        assertEquals("[jmh 1/2] " + feature + " G1: -XX:+UseG1GC", lines.get(3));
        assertTrue(lines.get(4).startsWith("  EnginePathBenchmark.wholePath (sizeBytes = 100): 0.00% complete"), run.toString());
        assertEquals("[jmh 2/2] " + feature + " Parallel: -XX:+UseParallelGC", lines.get(5));
        assertTrue(run.out.contains(feature + "  G1        complete"), run.toString());
        String scores = lines.stream().filter(l -> l.startsWith("EnginePathBenchmark.wholePath  sizeBytes=100  ns/op"))
                .findFirst().orElseThrow(() -> new AssertionError(run.toString()));
        assertTrue(scores.matches(".* ± [0-9.,]+ \\([0-9.,]+ B/op\\) +[0-9.,]+ ± [0-9.,]+ \\([0-9.,]+ B/op\\) "
                + "(within noise|better x[0-9.]+|worse x[0-9.]+)"), scores);

        JsonNode jmh = new ObjectMapper().readTree(dir.resolve("tune.json").toFile()).path("jmh");
        assertEquals("bench-core", jmh.path("module").asText());
        for (JsonNode set : jmh.path("sets")) {
            assertEquals("complete", set.path("status").asText(), set.toString());
            JsonNode score = set.path("scores").get(0);
            assertEquals("EnginePathBenchmark.wholePath", score.path("benchmark").asText());
            assertTrue(score.path("score").asDouble() > 0, score.toString());
            assertTrue(score.path("scoreError").asDouble() > 0, score.toString());
            assertTrue(score.path("allocBytesPerOp").isNumber(), score.toString());
        }
        assertEquals(feature + "-G1", jmh.path("sets").get(1).path("baseline").asText());
        assertTrue(jmh.path("sets").get(1).path("scores").get(0).path("verdict").isTextual());
        // the forks ran under each set's flags: JMH's own result records them
        JsonNode parallel = new ObjectMapper().readTree(dir.resolve("jmh-" + feature + "-Parallel.json").toFile());
        assertEquals("[\"-XX:+UseParallelGC\"]", parallel.get(0).path("jvmArgs").toString());

        Report.Written report = Report.write(List.of(dir), dir.resolve("report.html"));
        String html = Files.readString(report.html());
        assertTrue(html.contains("JMH in each set's own forks: bench-core"), html);
        assertTrue(html.contains("EnginePathBenchmark.wholePath sizeBytes=100, ns/op"), html);
    }
}
