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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.report.OverTimeCharts;
import dev.msgbench.cli.report.RunFolder;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.testing.TakesSeconds;

/** --rate-schedule and --size distributions on the command line, and a short loopback run of each. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShapeFlagsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--rate-schedule=1000 for 30s|--seed=1|Invalid value for option '--rate-schedule': expected 'RATE/s for TIME', "
                    + "'RATE/s to RATE/s over TIME' or 'N x (...)', got '1000 for 30s' (in '1000 for 30s')",
            "--rate-schedule=1000/s for 30s|--duration=5s|--rate-schedule sets the rate and the measured time; give "
                    + "either --duration or --rate-schedule, not both",
            "--rate-schedule=1000/s for 30s|--rate=5|--rate-schedule sets the rate and the measured time; give "
                    + "either --rate or --rate-schedule, not both",
            "--rate-schedule=1000/s for 30s|--warmup=auto|--rate-schedule needs a fixed --warmup (it runs at the "
                    + "schedule's first rate), got --warmup auto",
            "--rate-schedule=1000/s for 1s, 20000001/s for 1s|--producers=2|--rate-schedule cannot be kept: at most "
                    + "10,000,000 msg/s per producer, got a peak of 20,000,001 msg/s for 2 producers; lower the schedule "
                    + "or add --producers",
            "--rate-schedule=0/s for 10s|--seed=1|--rate-schedule '0/s for 10s' gives each of the 1 producers less than one "
                    + "message; raise its rates or times",
            "--size=uniform:16B-1KiB|--seed=1|--size must be at least 32 B (the message header), got 16 B in uniform:16B-1KiB",
            "--size=weights:1KiB=1,65MiB=1|--seed=1|--size must be at most 64MiB, got 68157440 B in weights:1KiB=1,65MiB=1",
            "--size=weights:1KiB|--seed=1|Invalid value for option '--size': weights are 'weights:SIZE=WEIGHT,...' (e.g. "
                    + "weights:100B=80,1KiB=20), got '1KiB' in 'weights:1KiB'",
    })
    void aBadShapeIsOneLineNamingTheFlagTheRuleAndTheValue(String first, String second, String expected) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "loopback", first, second));
        args.addAll(List.of("--output", dir.resolve("out").toString()));
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), args.toArray(String[]::new));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("error: " + expected, run.err.strip().replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", ""));
    }

    @Test
    void aScheduleIsTheMeasuredTimeAfterAWarmUp() {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> new CellOutcome(ExitCode.OK, null, null));
        CliRun run = CliRun.with(runner, "e2e", "--system", "loopback", "--warmup", "3s", "--rate-schedule",
                "1000/s for 10s, 2 x (1000/s to 5000/s over 5s)", "--output", dir.resolve("out").toString());

        assertEquals(0, run.exitCode, run.toString());
        Pacing.FixedRate pacing = (Pacing.FixedRate) runner.calls().get(0).cell().pacing();
        assertEquals(20, pacing.duration().toSeconds());
        assertEquals(3, pacing.warmup().toSeconds());
        assertEquals((10_000 + 2 * 15_000) / 20.0, pacing.rateMsgsPerSec());
    }

    @Test
    @TakesSeconds
    void aLoopbackRunKeepsTheScheduleAndCountsEveryByteOfItsSizes() throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate-schedule", "2000/s for 500ms, 1000/s to 3000/s over 500ms",
                "--warmup", "200ms", "--size", "weights:100B=80,1KiB=15,8KiB=5", "--producers", "2",
                "--spin-window", "600us", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(400 + 1_000 + 1_000, r.get("counts").get("sent").asLong());
        assertEquals(2_000, r.get("counts").get("measuredSent").asLong());
        assertEquals(2_400, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        JsonNode w = r.get("workload");
        assertEquals("2000/s for 500ms, 1000/s to 3000/s over 500ms", w.get("rateSchedule").asText());
        assertEquals(8_192, w.get("messageSizeBytes").asInt());
        JsonNode sizes = w.get("messageSizes");
        assertEquals("weights:100B=80,1KiB=15,8KiB=5", sizes.get("distribution").asText());
        assertEquals(sizes.get("sentBytes").asLong(), sizes.get("receivedBytes").asLong());
        assertEquals(100, sizes.get("p50Bytes").asLong());
        assertEquals(8_192, sizes.get("maxBytes").asLong());
        assertTrue(run.out.contains("sizes weights:100B=80,1KiB=15,8KiB=5: mean "), run.out);
        // the report's throughput chart draws the schedule beside what was sent
        assertTrue(OverTimeCharts.throughputOverTime(RunFolder.read(out, "run"), 0).xchart().getSeriesMap()
                .containsKey("target (--rate-schedule)"));
    }

    @Test
    void throughputCountsMiBOfTheActualSizes() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "20000", "--size", "uniform:100B-2KiB",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        JsonNode t = r.get("throughput");
        long bytes = r.get("workload").get("messageSizes").get("sentBytes").asLong();
        assertEquals(bytes, r.get("workload").get("messageSizes").get("receivedBytes").asLong());
        assertEquals(bytes / 1048576.0 / t.get("publishSeconds").asDouble(), t.get("publisherMiBPerSec").asDouble(), 1e-9);
        assertEquals(bytes / 1048576.0 / t.get("consumeSeconds").asDouble(), t.get("consumerMiBPerSec").asDouble(), 1e-9);
        assertEquals(20_000 * 1_074.0, bytes, 20_000 * 1_074.0 * 0.05);
    }

    @Test
    void aWorkloadCellTakesAScheduleAndASizeDistributionWithAFixedWarmUp() throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, """
                name: shapes
                command: e2e
                defaults: {system: nats}
                cells:
                  - {label: ramp, rate-schedule: "1000/s to 5000/s over 30s, 2 x (8000/s for 5s)", size: "uniform:100B-10KiB"}
                """);
        CliRun run = CliRun.of("run", file.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("--rate-schedule 1000/s to 5000/s over 30s, 2 x (8000/s for 5s) --size uniform:100B-10KiB"),
                run.out);
        assertFalse(run.out.contains("--warmup auto"), run.out);
        // 2 s of warm-up and 40 s of schedule
        assertTrue(run.out.contains("sending time: 42s, plus a broker start per run"), run.out);
    }
}
