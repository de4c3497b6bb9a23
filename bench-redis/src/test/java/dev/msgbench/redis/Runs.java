package dev.msgbench.redis;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.RunConfig;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;

/** Short real runs through the engine, for adapter tests. */
final class Runs {

    private Runs() {
    }

    static RunResult run(MessagingSystem system, String name, Path dir, double rate, int sizeBytes, int producers,
                         int consumers, Duration duration) throws Exception {
        RunConfig config = new RunConfig("e2e", name, rate, sizeBytes, Duration.ofMillis(500), duration, producers,
                consumers, Arrival.UNIFORM, 42, Duration.ofSeconds(10), Duration.ofSeconds(10), dir, false,
                Map.of("local", true));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8), null,
                false).execute();
    }
}
