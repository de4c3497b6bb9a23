package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.result.ResultFiles;

/** A tune --jmh-only folder in the report: no e2e set, so no charts, and the JMH table with its verdicts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TuneJmhSectionTest {

    @TempDir
    Path dir;

    private static void set(ArrayNode sets, String flagSet, double score, double error, String verdict, String status) {
        ObjectNode set = sets.addObject();
        set.put("jdk", "jdk17");
        set.put("flagSet", flagSet);
        set.put("status", status);
        ObjectNode s = set.putArray("scores").addObject();
        s.put("benchmark", "EnginePathBenchmark.wholePath");
        s.put("params", "sizeBytes=100");
        s.put("unit", "ns/op");
        s.put("score", score);
        s.put("scoreError", error);
        s.put("allocBytesPerOp", 0.25);
        if (verdict != null) {
            s.put("verdict", verdict);
        }
    }

    @Test
    void aJmhOnlyTuneIsItsTableOfScoresErrorBarsAndVerdicts() throws Exception {
        Path tune = dir.resolve("tune");
        Files.createDirectories(tune);
        ObjectNode json = ResultFiles.json().createObjectNode();
        json.putArray("e2eArgs");
        json.putArray("sets");
        ObjectNode jmh = json.putObject("jmh");
        jmh.put("module", "bench-core");
        jmh.put("include", "wholePath");
        jmh.putArray("args").add("-f").add("2");
        jmh.put("rule", "the rule");
        ArrayNode sets = jmh.putArray("sets");
        set(sets, "G1", 100, 5, null, "complete");
        set(sets, "Parallel", 130, 5, "worse x1.30", "complete");
        ResultFiles.json().writeValue(tune.resolve("tune.json").toFile(), json);

        Report.Written written = Report.write(List.of(dir), dir.resolve("report.html"));

        assertEquals(List.of(), written.chartFiles());
        String html = Files.readString(written.html());
        assertTrue(html.contains("<p>JMH in each set's own forks: bench-core wholePath -f 2</p>"), html);
        assertTrue(html.contains("<tr><td>EnginePathBenchmark.wholePath sizeBytes=100, ns/op</td>"
                + "<td class=\"n\">100 ± 5.00 (0.2500 B/op)</td>"
                + "<td class=\"n\">130 ± 5.00 (0.2500 B/op)<br>worse x1.30</td></tr>"), html);
        assertTrue(html.contains("the verdict: the rule."), html);
    }
}
