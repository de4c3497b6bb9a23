package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;

/** --keys and --key-count: their checks, a loopback run with keys, and the systems where a key changes nothing. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyFlagsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "--keys=hash|--seed=1|--keys: keys are none, round-robin, random or zipf:S (e.g. zipf:1.1), got 'hash'",
            "--keys=zipf:-1|--seed=1|--keys: zipf:S needs a number S above 0 (e.g. zipf:1.1), got 'zipf:-1'",
            "--keys=random|--key-count=0|--key-count must be at least 1, got 0",
            "--key-count=10|--seed=1|--key-count 10 needs --keys round-robin, random or zipf:S (got --keys none)",
    })
    void aBadKeyFlagIsOneLineNamingTheFlagTheRuleAndTheValue(String first, String second, String expected) {
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), "e2e", "--system", "loopback", first, second,
                "--output", dir.resolve("out").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("error: " + expected, run.err.strip().replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", ""));
    }

    @Test
    void aLoopbackRunWithKeysCountsEveryMessageAndRecordsTheKeys() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--messages", "20000", "--producers", "2",
                "--keys", "zipf:1.1", "--key-count", "50", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("zipf:1.1", r.get("workload").get("keys").asText());
        assertEquals(50, r.get("workload").get("keyCount").asInt());
        assertTrue(run.out.contains("\nkeys: zipf:1.1 over 50 keys\n"), run.out);
    }

    @Test
    void aWorkloadCellTakesKeys() throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, """
                name: keys
                command: e2e
                defaults: {system: kafka}
                cells:
                  - {label: keyed, keys: "zipf:1.2", key-count: 100}
                """);
        CliRun run = CliRun.of("run", file.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("--keys zipf:1.2 --key-count 100"), run.out);
    }
}
