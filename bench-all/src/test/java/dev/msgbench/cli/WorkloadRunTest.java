package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** run, for real: a tiny workload against local nats and kafka brokers, one failing cell among them. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class WorkloadRunTest {

    @TempDir
    Path dir;

    @Test
    void everyCellRunsIntoItsOwnFolderAFailedCellDoesNotStopTheOthersAndTheTableIsPrinted() throws Exception {
        Path file = dir.resolve("tiny.yaml");
        Files.writeString(file, """
                name: tiny
                source: "a test"
                defaults: {warmup: 1s, duration: 1s, rate: 200, size: 256B}
                cells:
                  - {label: "nats pubsub", system: nats}
                  - {label: "nats nowhere", system: nats, url: "127.0.0.1:1"}
                  - {label: "kafka 2 partitions", system: kafka, partitions: 2}
                table:
                  columns: [p50, p99, max, achieved-rate, sent, lost]
                """);
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("run", file.toString(), "--output", out.toString(), "--scale", "1");

        assertEquals(1, run.exitCode, "one cell failed: " + run);
        assertTrue(run.err.contains("cell 2 (nats nowhere) failed with exit code 2; going on with the next"), run.err);
        String table = run.out.substring(run.out.lastIndexOf("tiny (a test)"), run.out.lastIndexOf("report: "));
        assertTrue(run.out.endsWith("report: " + out.resolve("report.html") + System.lineSeparator()), run.out);
        assertTrue(Files.size(out.resolve("report.html")) > 10_000, "the run ends with its HTML report");
        assertTrue(table.matches("(?s).*\\n#  cell +p50 ms +p99 ms +max ms  achieved msg/s  sent  lost  status\\n.*"), table);
        assertTrue(table.matches("(?s).*\\n1  nats pubsub  .* 200   400     0  ok\\n.*"), table);
        assertTrue(table.matches("(?s).*\\n2  nats nowhere +- +- +- +- +- +-  FAILED \\(exit 2, nothing measured\\)\\n.*"),
                table);
        assertTrue(table.matches("(?s).*\\n3  kafka 2 partitions .* 400     0  (ok|RATE MISSED)\\n.*"), table);
        assertEquals(table, Files.readString(out.resolve("summary.txt")).substring(1));

        JsonNode nats = ResultFiles.json().readTree(out.resolve("01-nats-pubsub").resolve("result.json").toFile());
        assertEquals(400, nats.get("counts").get("received").asLong());
        JsonNode kafka = ResultFiles.json().readTree(out.resolve("03-kafka-2-partitions").resolve("result.json").toFile());
        assertEquals(2, kafka.get("settings").get("partitions").asInt());
        assertFalse(Files.exists(out.resolve("02-nats-nowhere").resolve("result.json")));
        JsonNode summary = ResultFiles.json().readTree(out.resolve("summary.json").toFile());
        assertEquals("e2e --system kafka --warmup 1s --duration 1s --rate 200 --size 256B --partitions 2",
                String.join(" ", ResultFiles.json().convertValue(summary.get("cells").get(2).get("args"), String[].class)));
        assertEquals(out.resolve("03-kafka-2-partitions").toString(), summary.get("cells").get(2).get("folder").asText());
    }

    @Test
    void theOutputFolderMustBeNewSoNoResultIsOverwritten() throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, "defaults: {rate: 5}\n");
        CliRun run = CliRun.of("run", file.toString(), "--output", dir.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --output " + dir + " already holds files; give an empty or new folder, so no result is "
                + "overwritten (see java -jar bench-all.jar run --help)" + System.lineSeparator(), run.err);
    }
}
