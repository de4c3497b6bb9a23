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
 * scripts/compare-native's readers of our results and of the jar's answers, and its arithmetic,
 * through its own --self-test, and its refusal of bad options: the script's figures are only as
 * good as what it reads. The native tools' parsers are their modules' (each module's
 * {@code nativetool} tests), reached through {@code native-tool run}.
 */
class CompareNativeScriptTest {

    /** Maven runs each module's tests in the module's folder. */
    private static final Path SCRIPT = Path.of("..", "scripts", "compare-native").toAbsolutePath().normalize();

    @Test
    void everyReaderAndSumChecksOut() throws Exception {
        Result r = run("--self-test");

        assertEquals(0, r.exitCode, r.output);
        assertFalse(r.output.contains("FAIL"), r.output);
        for (String parser : List.of("ours-pub", "ours-sub-lost", "floor", "ours-p50", "median-even", "ratio-cut",
                "pairs-ahead", "verdict-within", "broker-cores", "publish-seconds", "cpu-model", "cpu-model-arm",
                "described", "described-args", "described-args-listener", "side-name", "sides-sub-only")) {
            assertTrue(r.output.contains("ok   " + parser + "\n"), parser + " not checked:\n" + r.output);
        }
    }

    @Test
    void aWarmupThatIsNotACountIsRefusedInOneLine() throws Exception {
        Result r = run("--warmup-messages", "-1");

        assertEquals(2, r.exitCode, r.output);
        assertEquals("compare-native: --warmup-messages must be a whole number of 0 or more, got '-1'\n", r.output);
    }

    @Test
    void sidesOtherThanPubAndSubAreRefusedInOneLine() throws Exception {
        Result r = run("--sides", "both");

        assertEquals(2, r.exitCode, r.output);
        assertEquals("compare-native: --sides must be pub, sub or pub,sub, got 'both'\n", r.output);
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
