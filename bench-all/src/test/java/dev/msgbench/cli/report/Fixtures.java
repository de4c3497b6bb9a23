package dev.msgbench.cli.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.testing.ShortRuns;

/** Results folders written by the core's own writers: a short engine run against the in-memory system. */
public final class Fixtures {

    private Fixtures() {
    }

    /**
     * 0.5 s of warm-up and 1.5 s measured at 200 msg/s, each publish taking {@code serviceMicros}, on
     * a fake clock: it takes milliseconds, and every latency is exactly the service time.
     */
    public static Path run(Path dir, String system, long serviceMicros) throws Exception {
        ManualClock clock = new ManualClock(0);
        ShortRuns.onFakeClock(new InMemorySystem(clock).answeringIn(serviceMicros * 1000), clock, dir, 200, 256,
                Duration.ofMillis(500), Duration.ofMillis(1500));
        editResult(dir, json -> json.put("system", system));
        return dir;
    }

    public static Path run(Path dir, String system, InMemorySystem inMemory) throws Exception {
        ShortRuns.run(inMemory, dir, 200, 256, 1, 1, Duration.ofMillis(500), Duration.ofMillis(1500));
        editResult(dir, json -> json.put("system", system));
        return dir;
    }

    /** Changes result.json in place, as a later version of a run would have written it. */
    public static void editResult(Path dir, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode json = (ObjectNode) ResultFiles.json().readTree(dir.resolve(ResultFiles.RESULT_JSON).toFile());
        edit.accept(json);
        ResultFiles.json().writeValue(dir.resolve(ResultFiles.RESULT_JSON).toFile(), json);
    }
}
