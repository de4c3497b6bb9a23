package dev.msgbench.nats;

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

/** Short engine runs against a real server, for the adapter tests. */
final class Runs {

    private Runs() {
    }

    static RunResult run(MessagingSystem system, Path dir, double rate, int sizeBytes, int producers, int consumers)
            throws Exception {
        RunConfig config = new RunConfig("e2e", "test", rate, sizeBytes, Duration.ofMillis(300), Duration.ofSeconds(1),
                producers, consumers, Arrival.UNIFORM, 7, Duration.ofSeconds(10), Duration.ofSeconds(10), dir, false,
                Map.of("local", true));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (system) {
            return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8),
                    null, false).execute();
        }
    }
}
