package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * scripts/compare-native's parsers of every native tool's output, through its own --self-test,
 * and its refusal of bad options: the script's figures are only as good as what it reads.
 */
class CompareNativeScriptTest {

    /** Maven runs each module's tests in the module's folder. */
    private static final Path SCRIPT = Path.of("..", "scripts", "compare-native").toAbsolutePath().normalize();

    @Test
    void everyParserReadsItsToolsOutput() throws Exception {
        Result r = run("--self-test");

        assertEquals(0, r.exitCode, r.output);
        assertFalse(r.output.contains("FAIL"), r.output);
        for (String parser : List.of("producer-performance", "producer-performance-steady", "consumer-performance",
                "consumer-performance-steady",
                "perf-test", "nats-bench-sub", "redis-benchmark", "ours-sub-lost", "pairs-ahead", "cpu-model",
                "cpu-model-arm")) {
            assertTrue(r.output.contains("ok   " + parser + "\n"), parser + " not checked:\n" + r.output);
        }
    }

    @Test
    void aWarmupThatIsNotACountIsRefusedInOneLine() throws Exception {
        Result r = run("--warmup-messages", "-1");

        assertEquals(2, r.exitCode, r.output);
        assertEquals("compare-native: --warmup-messages must be a whole number of 0 or more, got '-1'\n", r.output);
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "compare-native did not end");
        return new Result(p.exitValue(), output);
    }
}
