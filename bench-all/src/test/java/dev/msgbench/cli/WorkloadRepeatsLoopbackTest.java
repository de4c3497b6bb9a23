package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** run with repeats, for real on the loopback system (no broker): every run's folder and the summary's spread. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkloadRepeatsLoopbackTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void twoCellsThreeRepeatsLeaveSixRunsAndTheSummaryHasTheirSpread() throws Exception {
        Path file = dir.resolve("tiny.yaml");
        Files.writeString(file, """
                name: tiny repeats
                repeats: 3
                baseline: small
                defaults: {system: loopback, warmup: 0s, duration: 1s, rate: 500}
                cells:
                  - {label: small, size: 256B}
                  - {label: large, size: 4KiB}
                table:
                  columns: [p50, p99, max, achieved-rate, sent, lost]
                """);
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("run", file.toString(), "--output", out.toString(), "--quiet");

        assertEquals(0, run.exitCode, run.toString());
        for (String cell : new String[] {"01-small", "02-large"}) {
            for (int k = 1; k <= 3; k++) {
                JsonNode result = ResultFiles.json().readTree(out.resolve(cell).resolve("run-" + k)
                        .resolve(ResultFiles.RESULT_JSON).toFile());
                assertEquals("complete", result.get("status").asText(), cell + " run " + k);
                assertEquals(500, result.get("counts").get("received").asLong(), cell + " run " + k);
            }
        }
        String summary = Files.readString(out.resolve("summary.txt"));
        assertTrue(summary.contains(NL + "3 runs per cell, interleaved; each figure: the median run [lowest..highest run] "
                + "of the complete runs" + NL), summary);
        assertTrue(summary.matches("(?s).*\\n1  small +3 of 3 +[0-9.]+ \\[[0-9.]+\\.\\.[0-9.]+\\] .*"), summary);
        assertTrue(summary.matches("(?s).*\\n2  large +3 of 3 +[0-9.]+ \\[[0-9.]+\\.\\.[0-9.]+\\] .*"), summary);
        assertTrue(summary.matches("(?s).*\\n2  large +no verdict \\(3 vs 3 runs\\) .*"), summary);
        assertTrue(summary.contains("no verdict: needs 4 repeats, this run has 3 per cell"), summary);
        assertTrue(summary.matches("(?s).*\\n1\\.all  small .* 1,500     0  ok\\n.*"), summary);
        String page = Files.readString(out.resolve("report.html"));
        assertTrue(page.contains("Workload cells, run by run (tiny repeats, out)"), "the repeats drawn as tune's sets are");
        assertTrue(Files.isRegularFile(out.resolve("report-charts").resolve("cells-01-p99-ms.svg")),
                String.join(" ", out.resolve("report-charts").toFile().list()));
        assertEquals(summary, run.out.substring(run.out.indexOf(NL + "tiny repeats" + NL), run.out.lastIndexOf("report: ")));
    }
}
