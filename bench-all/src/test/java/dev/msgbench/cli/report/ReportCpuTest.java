package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/** What the report says of each run's CPUs: a cell of the summary table, and the figures beside the settings. */
class ReportCpuTest {

    @TempDir
    Path dir;

    @Test
    void aContendedRunIsMarkedInTheSummaryAndItsFiguresAreListed() throws Exception {
        Path contended = Fixtures.run(dir.resolve("runs/1-shared"), "nats", 200);
        Fixtures.editResult(contended, json -> {
            ObjectNode cpu = json.putObject("cpu");
            cpu.put("summary", "machine 97% busy of 2 cores (steal 0%); load generator 1.19 cores, broker 0.79, "
                    + "interrupts 0.10, other processes 0.00");
            cpu.putObject("machine").put("busyShare", 0.97);
            cpu.put("contention", true);
            cpu.put("busyMachine", false);
        });
        Fixtures.run(dir.resolve("runs/2-older"), "nats", 200);
        RunResult read = ResultFiles.readResult(contended);
        assertTrue(read.cpu() != null && Boolean.TRUE.equals(read.cpu().get("contention")), String.valueOf(read.cpu()));

        Path page = dir.resolve("report.html");
        Report.write(List.of(contended, dir.resolve("runs/2-older")), page);
        String html = Files.readString(page);

        assertTrue(html.contains("<th>cpu busy</th>"), html);
        assertTrue(html.contains("<td class=\"warn\">97% contention</td></tr>"), "the contended run");
        assertTrue(html.contains("<td>-</td></tr>"), "a run that did not watch the CPUs");
        assertTrue(html.contains("<td class=\"k\">cpu</td><td class=\"k\">summary</td><td class=\"v\">machine 97% busy"),
                "the figures beside the settings");
    }
}
