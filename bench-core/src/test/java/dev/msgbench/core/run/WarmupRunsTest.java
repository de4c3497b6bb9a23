package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The warm-up's messages shared by its runs, each on a seed and in a folder of its own. */
class WarmupRunsTest {

    private static final Path DIR = Path.of("out");

    private static RunSpec measuredAfter(long warmupMessages) {
        return new RunSpec("throughput", "in-memory",
                new Pacing.Unpaced(1000, 0, Duration.ofSeconds(30), true, warmupMessages), 100, 1, 1, 42,
                Duration.ofMillis(300), Duration.ofSeconds(5), DIR, true, Map.of("local", true));
    }

    @Test
    void twoRunsShareTheMessagesTheFirstTakingTheRemainder() {
        List<RunSpec> runs = measuredAfter(7).warmupRuns();
        assertEquals(List.of(4L, 3L), runs.stream().map(r -> ((Pacing.Unpaced) r.pacing()).messages()).toList());
        assertEquals(List.of(43L, 44L), runs.stream().map(RunSpec::seed).toList());
        assertEquals(List.of(DIR.resolve("warmup/1"), DIR.resolve("warmup/2")),
                runs.stream().map(RunSpec::outputDir).toList());
        for (RunSpec run : runs) {
            Pacing.Unpaced pacing = (Pacing.Unpaced) run.pacing();
            assertEquals(List.of(0L, true, false), List.of(pacing.warmupMessages(), pacing.consumeAfterProduce(),
                    run.progress()), "no warm-up of its own, the measured run's flags, no progress line");
        }
    }

    @Test
    void oneMessageMakesOneRun() {
        assertEquals(1, measuredAfter(1).warmupRuns().size());
    }

    @Test
    void aRunWithoutWarmupMessagesHasNoWarmupRuns() {
        assertThrows(IllegalStateException.class, () -> measuredAfter(0).warmupRuns());
    }
}
