package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.cli.systems.Targets;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.echo.EchoRoute;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;

/** --pattern echo against every system's real broker, and the responder as a process of its own. */
@NeedsBroker
class EchoEndToEndTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kafka", "nats", "jetstream", "rabbitmq", "redis", "redis-streams"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anEchoRunMeasuresTheRoundTripAndLosesNothing(String system) throws Exception {
        Path out = dir.resolve(system);
        CliRun run = CliRun.of("e2e", "--system", system, "--pattern", "echo", "--producers", "2", "--consumers", "2",
                "--rate", "400", "--duration", "1s", "--warmup", "500ms", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(600, r.get("counts").get("sent").asLong(), run.toString());
        assertEquals(600, r.get("counts").get("received").asLong(), run.toString());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertEquals(0, r.get("counts").get("duplicated").asLong() + r.get("counts").get("foreign").asLong());
        assertEquals("echo", r.get("settings").get("pattern").asText());
        assertEquals(EchoRoute.LATENCY, r.get("settings").get("latency").asText());
        assertTrue(run.out.contains("latency: " + EchoRoute.LATENCY), run.out);
    }

    /** Kafka: the side that comes second finds the run's topics made by the other, and uses them. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nats", "kafka", "redis"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aResponderInAProcessOfItsOwnEchoesWhatTheMeasuringSideSends(String system) throws Exception {
        Path log = dir.resolve("responder.log");
        SystemTarget target = Targets.create().stream().filter(t -> t.name().equals(system)).findFirst().orElseThrow();
        try (LocalBroker broker = target.startLocalBroker(new SystemTarget.BrokerRequest(1, Map.of(),
                dir.resolve("broker-logs"), 1024, null))) {
            ManagedProcess responder = new JavaChild("echo responder", Main.class.getName(), List.of(),
                    List.of("responder", "--system", system, "--url", broker.url(), "--run-id", "echo-remote-1",
                            "--producers", "2", "--duration", "90s"), null, log, null).start();
            try {
                Poll.until(() -> read(log).contains("responder ready") || !responder.isAlive());
                assertTrue(responder.isAlive(), () -> read(log));
                Path out = dir.resolve("measured");

                CliRun run = CliRun.of("e2e", "--system", system, "--url", broker.url(), "--pattern", "echo",
                        "--responder", "external", "--run-id", "echo-remote-1", "--producers", "2", "--rate", "400",
                        "--duration", "1s", "--warmup", "500ms", "--output", out.toString());

                assertEquals(0, run.exitCode, run + "\nresponder:\n" + read(log));
                JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
                assertEquals(600, r.get("counts").get("received").asLong(), run.toString());
                assertEquals(0, ResultTrees.lost(r), run.toString());
                assertEquals("another process (responder --run-id echo-remote-1)", r.get("settings").get("responder").asText());
                assertEquals("echo-remote-1-back", r.get("settings").get("returnRunId").asText());
                Poll.until(() -> read(log).contains("echoed 600 "));
            } finally {
                responder.stop(Duration.ofSeconds(10));
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
