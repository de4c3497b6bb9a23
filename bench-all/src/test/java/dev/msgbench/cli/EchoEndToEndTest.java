package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.echo.CloseAll;
import dev.msgbench.core.echo.EchoRoute;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.Systems;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.Poll;

/** --pattern echo against every system's real broker, and the responder as a process of its own. */
@NeedsBroker
class EchoEndToEndTest {

    private static final Map<String, LocalBroker> BROKERS = new LinkedHashMap<>();

    @TempDir
    static Path brokerLogs;

    @TempDir
    Path dir;

    /** On the class's brokers: what is checked is the round trip, not a local broker's start (10 s for Kafka). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kafka", "nats", "jetstream", "rabbitmq", "redis", "redis-streams"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anEchoRunMeasuresTheRoundTripAndLosesNothing(String system) throws Exception {
        Path out = dir.resolve(system);
        CliRun run = CliRun.of("e2e", "--system", system, "--url", brokerFor(system).url(), "--pattern", "echo",
                "--producers", "2", "--consumers", "2", "--rate", "400", "--duration", "1s", "--warmup", "500ms",
                "--output", out.toString());

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

    /**
     * Kafka: the side that comes second finds the run's topics made by the other, and uses them.
     * JetStream, RabbitMQ and Redis Streams: each side declares what it reads and writes, and finds
     * what the other declared.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nats", "jetstream", "kafka", "rabbitmq", "redis", "redis-streams"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aResponderInAProcessOfItsOwnEchoesWhatTheMeasuringSideSends(String system) throws Exception {
        Path log = dir.resolve(system + "-responder.log");
        LocalBroker broker = brokerFor(system);
        String runId = "echo-remote-" + system;
        ManagedProcess responder = startResponder(log, "--system", system, "--url", broker.url(), "--run-id", runId,
                "--producers", "2");
        try {
            Path out = dir.resolve(system + "-measured");

            CliRun run = CliRun.of("e2e", "--system", system, "--url", broker.url(), "--pattern", "echo",
                    "--responder", "external", "--run-id", runId, "--producers", "2", "--rate", "400",
                    "--duration", "1s", "--warmup", "500ms", "--output", out.toString());

            assertEquals(0, run.exitCode, run + "\nresponder:\n" + read(log));
            JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
            assertEquals(600, r.get("counts").get("received").asLong(), run.toString());
            assertEquals(0, ResultTrees.lost(r), run.toString());
            assertEquals("another process (responder --run-id " + runId + ")", r.get("settings").get("responder").asText());
            assertEquals(runId + "-back", r.get("settings").get("returnRunId").asText());
            assertEchoed(responder, log, 600);
        } finally {
            responder.stop(Duration.ofSeconds(10));
        }
        // each side deleted what it made, and nothing the other still used
        assertFalse(read(log).contains("error") || read(log).contains("could not close"), () -> read(log));
    }

    /**
     * One responder serves every worker of a measuring side run with --workers: each worker's
     * destinations end in -wI, and each carries that worker's share of the producer streams.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aResponderStartedWithWorkersEchoesForEachWorkerOnItsOwnDestinations() throws Exception {
        Path log = dir.resolve("workers-responder.log");
        LocalBroker broker = brokerFor("nats");
        ManagedProcess responder = startResponder(log, "--system", "nats", "--url", broker.url(), "--run-id",
                "echo-workers", "--producers", "3", "--workers", "2");
        try {
            assertTrue(read(log).contains("responder ready: echoing echo-workers-w0 back on echo-workers-w0-back, "
                    + "echo-workers-w1 back on echo-workers-w1-back (nats at " + broker.url() + ", 3 producer streams "
                    + "of 2 workers)"), () -> read(log));
            Path out = dir.resolve("workers-measured");

            // worker 1 of 2 runs one of the three streams: 300 x 1/3 = 100 msg/s
            CliRun run = CliRun.of("e2e", "--system", "nats", "--url", broker.url(), "--pattern", "echo",
                    "--responder", "external", "--run-id", "echo-workers", "--workers", "2", "--worker-index", "1",
                    "--producers", "3", "--consumers", "2", "--rate", "300", "--duration", "1s", "--warmup", "500ms",
                    "--output", out.toString());

            assertEquals(0, run.exitCode, run + "\nresponder:\n" + read(log));
            JsonNode r = ResultFiles.json().readTree(out.resolve("worker-1/result.json").toFile());
            assertEquals(150, r.get("counts").get("received").asLong(), run.toString());
            assertEquals(0, ResultTrees.lost(r), run.toString());
            assertEquals("echo-workers-w1-back", r.get("settings").get("returnRunId").asText());
            assertEchoed(responder, log, 150);
        } finally {
            responder.stop(Duration.ofSeconds(10));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anExternalEchoWithNoResponderRunningFailsAfterTheFirstEchoTimeoutNamingWhatToStart() throws Exception {
        LocalBroker broker = brokerFor("nats");
        Path out = dir.resolve("unanswered");

        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", broker.url(), "--pattern", "echo",
                "--responder", "external", "--run-id", "nobody-home", "--first-echo-timeout", "1s", "--rate", "200",
                "--duration", "20s", "--warmup", "500ms", "--output", out.toString());

        String line = "no echo came back on nobody-home-back within 1s of the first send: no responder answers run id "
                + "nobody-home; start `responder --system nats --url " + broker.url() + " --run-id nobody-home "
                + "--producers 1` on the far side before this run (or raise --first-echo-timeout)";
        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: the run failed: " + line + "; partial results in " + out), run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("failed", r.get("status").asText());
        assertEquals(line, r.get("error").asText());
        assertEquals(1.0, r.get("settings").get("firstEchoTimeoutSeconds").asDouble());
    }

    /** Waits until the responder says it echoed {@code count}, or ended, which fails. */
    private static void assertEchoed(ManagedProcess responder, Path log, int count) throws InterruptedException {
        Poll.until(() -> read(log).contains("echoed " + count + " ") || !responder.isAlive());
        assertTrue(read(log).contains("echoed " + count + " "), () -> read(log));
    }

    /** Starts {@code responder ARGS} in a JVM of its own and waits until it says it is ready. */
    private static ManagedProcess startResponder(Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("responder"));
        command.addAll(List.of(args));
        command.addAll(List.of("--duration", "90s"));
        ManagedProcess responder = new JavaChild("echo responder", Main.class.getName(), List.of(), command, null, log,
                null).start();
        Poll.until(() -> read(log).contains("responder ready") || !responder.isAlive());
        if (!responder.isAlive()) {
            throw new AssertionError("the responder ended before it was ready:\n" + read(log));
        }
        return responder;
    }

    /** The class's brokers, each started once: a JetStream server also serves core NATS, a Redis server both patterns. */
    private static synchronized LocalBroker brokerFor(String system) {
        String server = switch (system) {
            case "nats" -> "jetstream";
            case "redis-streams" -> "redis";
            default -> system;
        };
        return BROKERS.computeIfAbsent(server, name -> Systems.create().stream().filter(t -> t.name().equals(name))
                .findFirst().orElseThrow().startLocalBroker(new SystemTarget.BrokerRequest(
                        BrokerSpec.defaults().withLogDir(brokerLogs.resolve(name)), 1024)));
    }

    @AfterAll
    static void stopBrokers() throws Exception {
        CloseAll.inOrder(BROKERS.values());
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
