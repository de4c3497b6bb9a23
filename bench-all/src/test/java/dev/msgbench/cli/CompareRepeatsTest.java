package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.cli.report.Fixtures;

/** compare with repeats on either side: a verdict per figure over the runs' own values. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompareRepeatsTest {

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeRuns() throws Exception {
        Path one = Fixtures.run(dir.resolve("one"), "nats", 500);
        // the same run copied, each copy's result.json given its own p99 and rate: BASE around 2 ms,
        // NEW around 4 ms, the same received rate
        double[] baseP99 = {2.0, 2.2, 1.9, 2.1};
        double[] nextP99 = {4.0, 4.4, 3.8, 4.2};
        for (int i = 0; i < 4; i++) {
            copy(one, dir.resolve("base/" + i), baseP99[i], 200 + i);
            copy(one, dir.resolve("new/" + i), nextP99[i], 201 + i);
        }
        copy(one, dir.resolve("three/0"), 4.0, 200);
        copy(one, dir.resolve("three/1"), 4.1, 200);
        copy(one, dir.resolve("three/2"), 4.2, 200);
    }

    private static void copy(Path from, Path to, double p99, double receivedRate) throws Exception {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        Fixtures.editResult(to, json -> {
            ((ObjectNode) json.get("latenciesMs").get("latency")).put("p99", p99);
            ((ObjectNode) json.get("rates")).put("receivedMsgsPerSec", receivedRate);
        });
    }

    @Test
    void fourRunsASideGiveAVerdictPerFigureByTheNamedRule() {
        CliRun r = CliRun.of("compare", dir.resolve("base").toString(), dir.resolve("new").toString());

        assertEquals(0, r.exitCode, r.toString());
        List<String> lines = r.out.lines().toList();
        int at = lines.indexOf("NEW against BASE over the runs (4 vs 4), by two-sided Mann-Whitney rank test over the "
                + "runs, exact p, at 5%; a verdict needs 4 runs a side (3 a side cannot reach it: the smallest p is 0.100):");
        assertTrue(at > 0, r.out);
        assertTrue(lines.contains("p99 ms           worse x2.00 (p=0.029)"), r.out);
        // the copies' other percentiles are one run's, identical: nothing to tell apart
        assertTrue(lines.contains("p50 ms           within noise (p=1.00)"), r.out);
        assertTrue(lines.contains("received rate/s  within noise (p=0.46)"), r.out);
    }

    @Test
    void fewerRunsThanARankTestNeedsGiveNoVerdict() {
        CliRun r = CliRun.of("compare", dir.resolve("base").toString(), dir.resolve("three").toString());

        assertTrue(r.out.contains("p99 ms           no verdict (4 vs 3 runs)"), r.out);
    }

    @Test
    void oneRunASidePrintsNoVerdicts() {
        CliRun r = CliRun.of("compare", dir.resolve("one").toString(), dir.resolve("one").toString());

        assertTrue(!r.out.contains("NEW against BASE over the runs"), r.out);
    }
}
