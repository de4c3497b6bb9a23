package dev.msgbench.core.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.msgbench.core.time.Arrival;

/** Short runs for tests. */
final class RunConfigs {

    private RunConfigs() {
    }

    static RunConfig of(Path dir, double rate, Duration warmup, Duration duration) {
        return new RunConfig("e2e", "in-memory", rate, 100, warmup, duration, 1, 1, Arrival.UNIFORM, 42,
                Duration.ofMillis(300), Duration.ofSeconds(5), dir, false, Map.of("local", true));
    }

    static RunConfig withProducers(RunConfig c, int producers) {
        return new RunConfig(c.command(), c.systemName(), c.rateMsgsPerSec(), c.messageSizeBytes(), c.warmup(),
                c.duration(), producers, c.consumers(), c.arrival(), c.seed(), c.drainTimeout(), c.readyTimeout(),
                c.outputDir(), c.progress(), c.broker());
    }
}
