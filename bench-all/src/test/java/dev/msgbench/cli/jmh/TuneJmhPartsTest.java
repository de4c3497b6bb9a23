package dev.msgbench.cli.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;

/** What tune --jmh reads and decides: JMH's JSON, the verdict rule over error bars, and where the clone is. */
class TuneJmhPartsTest {

    @TempDir
    Path dir;

    /** The fixture is a real run's result: tune --jmh-only on EnginePathBenchmark.wholePath, -i 3, jdk17 G1. */
    @Test
    void aRealRunsScoresComeWithErrorUnitAndTheGcProfilersAllocation() {
        Map<String, JmhScore> scores = JmhResults.read(Path.of("src/test/resources/jmh/engine-wholePath-jdk17-G1.json"));

        assertEquals(List.of("dev.msgbench.core.run.EnginePathBenchmark.wholePath avgt sizeBytes=100",
                "dev.msgbench.core.run.EnginePathBenchmark.wholePath avgt sizeBytes=1024"), List.copyOf(scores.keySet()));
        JmhScore small = scores.values().iterator().next();
        assertEquals("EnginePathBenchmark.wholePath", small.benchmark());
        assertEquals("sizeBytes=100", small.params());
        assertEquals(472.4183853852305, small.score());
        assertEquals(8926.122094151486, small.error());
        assertEquals("ns/op", small.unit());
        assertEquals(1.1318554191346022, small.allocBytesPerOp());
        assertEquals(1.753460971323206, small.allocMBPerSec());
        assertEquals(false, small.higherIsBetter());
    }

    private static JmhScore time(double score, double error) {
        return new JmhScore("k", "B.m", "avgt", "", score, error, "ns/op", Double.NaN, Double.NaN, false);
    }

    private static JmhScore throughput(double score, double error) {
        return new JmhScore("k", "B.m", "thrpt", "", score, error, "ops/s", Double.NaN, Double.NaN, true);
    }

    @Test
    void onlyIntervalsThatDoNotOverlapMakeADifferenceAndTheModeSaysWhichWayIsBetter() {
        // [90, 110] and [105, 125] overlap: within noise, though the ratio is 1.15
        assertEquals("within noise", JmhComparison.against(time(100, 10), time(115, 10)));
        // touching ends still overlap
        assertEquals("within noise", JmhComparison.against(time(100, 10), time(120, 10)));
        assertEquals("worse", JmhComparison.against(time(100, 10), time(121, 10)));
        assertEquals("better", JmhComparison.against(time(100, 10), time(79, 10)));
        assertEquals("better", JmhComparison.against(throughput(100, 10), throughput(121, 10)));
        assertEquals("worse", JmhComparison.against(throughput(100, 10), throughput(79, 10)));
        // JMH writes no error below 3 iterations: no verdict, however far apart the scores are
        assertEquals("no error bars", JmhComparison.against(time(100, Double.NaN), time(1000, 1)));
    }

    @Test
    void theCloneIsTheFolderOfTheRootPomAboveTheWorkingDirectoryNotAModulesPom() throws Exception {
        Path root = dir.resolve("clone");
        Files.createDirectories(root.resolve("bench-all/target"));
        Files.writeString(root.resolve("pom.xml"), "<modules><module>bench-core</module></modules>");
        Files.writeString(root.resolve("bench-all/pom.xml"), "<parent><artifactId>msgbench-parent</artifactId></parent>");

        assertEquals(root, ProjectClone.locate(root.resolve("bench-all/target"), dir.resolve("elsewhere")).root());
        // run from elsewhere, the jar's own place finds it
        assertEquals(root, ProjectClone.locate(dir.resolve("elsewhere"), root.resolve("bench-all/target/bench-all.jar")).root());
    }

    @Test
    void outsideAnyCloneTuneJmhIsRefusedNamingBothPlacesItLooked() {
        Path cwd = dir.resolve("work");
        Path jar = dir.resolve("opt/bench-all.jar");

        assertEquals("tune --jmh: no clone of msgbench at or above " + cwd + " or " + jar + " (no pom.xml with the "
                        + "module bench-core); the JMH benchmarks are test sources: run tune --jmh inside a clone of the project",
                assertThrows(UserError.class, () -> ProjectClone.locate(cwd, jar)).getMessage());
    }
}
