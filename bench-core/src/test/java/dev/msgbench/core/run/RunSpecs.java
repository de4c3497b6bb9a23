package dev.msgbench.core.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.msgbench.core.time.Arrival;

/** Short runs for tests. */
final class RunSpecs {

    private RunSpecs() {
    }

    static RunSpec of(Path dir, double rate, Duration warmup, Duration duration) {
        return new RunSpec("e2e", "in-memory", new Pacing.FixedRate(rate, Arrival.UNIFORM, warmup, duration), 100,
                1, 1, 42, Duration.ofMillis(300), Duration.ofSeconds(5), dir, false, Map.of("local", true));
    }

    static RunSpec unpaced(Path dir, long messages, int maxOutstanding) {
        return new RunSpec("throughput", "in-memory", new Pacing.Unpaced(messages, maxOutstanding, Duration.ofSeconds(30), false),
                100, 1, 1, 42, Duration.ofMillis(300), Duration.ofSeconds(5), dir, false, Map.of("local", true));
    }

    static RunSpec withProducers(RunSpec c, int producers) {
        return c.withProducers(producers);
    }
}
