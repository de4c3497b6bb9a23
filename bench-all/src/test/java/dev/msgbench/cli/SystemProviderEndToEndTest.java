package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.fixture.RelayBroker;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.system.Systems;
import dev.msgbench.core.testing.TakesSeconds;

/**
 * A system module reaches the runner through {@link java.util.ServiceLoader} alone: the relay,
 * a provider that exists only in the tests and is listed only in {@code src/test/provider-fixture},
 * runs e2e, throughput and broker with its own flag, its native tool reaches native-tool, and
 * nothing in bench-all names it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SystemProviderEndToEndTest {

    private static final Path FIXTURE = Path.of("src/test/provider-fixture");

    @TempDir
    Path dir;

    @Test
    void withoutTheFixtureOnTheClassPathTheRunnerDoesNotKnowTheRelay() throws Exception {
        assertFalse(Systems.names().contains("relay"), Systems.names().toString());
        assertEquals(List.of("kafka", "nats", "jetstream", "rabbitmq", "rabbitmq-streams", "redis", "redis-streams", "pulsar", "mqtt", "loopback"),
                Systems.names());
        assertTrue(withFixture(Systems::names).contains("relay"));
    }

    @Test
    @TakesSeconds
    void e2eStartsTheProvidersBrokerPassesItsFlagAndStopsIt() throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = withFixture(() -> CliRun.of("e2e", "--system", "relay", "--relay-version", "7.3",
                "--rate", "2000", "--duration", "1s", "--warmup", "0s", "--output", out.toString()));

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.contains("starting a local relay broker (1 node)"), run.err);
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("relay", r.get("system").asText());
        assertEquals(2000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r), run.toString());
        assertTrue(run.err.contains("relay 7.3 ready at relay://"), run.err);
        assertTrue(RelayBroker.running().isEmpty(), "a broker left open: " + RelayBroker.running());
    }

    @Test
    void throughputRunsOnTheRelayToo() throws Exception {
        Path out = dir.resolve("tp");
        int before = RelayBroker.closed().size();
        CliRun run = withFixture(() -> CliRun.of("throughput", "--system", "relay", "--messages", "20000",
                "--output", out.toString()));

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(20000, r.get("counts").get("received").asLong());
        assertEquals(before + 1, RelayBroker.closed().size());
    }

    @Test
    void brokerServesTheRelayAndItsRefusalsAndFlagsAreItsOwn() throws Exception {
        CliRun broker = withFixture(() -> CliRun.of("broker", "relay", "--stop-after", "100ms"));
        assertEquals(0, broker.exitCode, broker.toString());
        assertTrue(broker.out.startsWith("relay://127.0.0.1/"), broker.toString());
        assertTrue(RelayBroker.running().isEmpty(), "a broker left open: " + RelayBroker.running());

        CliRun refused = withFixture(() -> CliRun.of("e2e", "--system", "relay", "--acks", "all", "--rate", "10"));
        assertEquals(2, refused.exitCode, refused.toString());
        assertTrue(refused.err.contains("--acks all: the relay keeps one copy"), refused.err);
        assertFalse(refused.err.contains("starting a local"), refused.err);

        CliRun fault = withFixture(() -> CliRun.of("e2e", "--system", "relay", "--fault", "kill@1s", "--rate", "10",
                "--duration", "2s"));
        assertEquals(2, fault.exitCode, fault.toString());
        assertTrue(fault.err.contains("--fault 'kill@1s': relay cannot take a kill fault; it takes [exec]"), fault.err);
        assertFalse(fault.err.contains("starting a local"), fault.err);

        CliRun foreign = withFixture(() -> CliRun.of("e2e", "--system", "kafka", "--relay-version", "2", "--rate", "10"));
        assertEquals(2, foreign.exitCode, foreign.toString());
        assertTrue(foreign.err.contains("--relay-version applies to --system relay only, not kafka"), foreign.err);

        String help = withFixture(() -> CliRun.of("e2e", "--help")).out;
        assertTrue(help.contains("--relay-version=VERSION"), help);
    }

    @Test
    void nativeToolListsDescribesAndRunsTheRelaysToolWithNoChangeToTheRunner() throws Exception {
        CliRun list = withFixture(() -> CliRun.of("native-tool", "list"));
        assertEquals(0, list.exitCode, list.toString());
        assertTrue(list.out.startsWith("kafka\tProducerPerformance and ConsumerPerformance\t"), list.out);
        assertTrue(list.out.endsWith("\nrelay\trelay-bench\tsh, in the tests\trelay-burst=4 (relay-bench's burst)\n"), list.out);

        CliRun describe = withFixture(() -> CliRun.of("native-tool", "describe", "relay", "--side", "subscriber", "--size",
                "64", "--warmup-messages", "10", "--knob", "relay-burst=2", "--knob", "redis-pipeline=8"));
        assertEquals(0, describe.exitCode, describe.toString());
        assertEquals("""
                messages=1234
                warmup=0
                comparable=true
                compared=relay-bench's rate, burst 2, vs our consumer msg/s
                ours=--relay-version
                ours=7.3
                """, describe.out);

        Path logs = dir.resolve("logs");
        CliRun run = withFixture(() -> CliRun.of("native-tool", "run", "relay", "--side", "publisher", "--size", "64",
                "--messages", "500", "--url", "relay://127.0.0.1/1", "--run-name", "cmp-1", "--logs", logs.toString(),
                "--cache", dir.resolve("cache").toString()));
        assertEquals(0, run.exitCode, run.toString());
        assertEquals("msgs_per_sec=12345.6\n", run.out);
        assertEquals("relay-bench: 500 x 64 B to relay://127.0.0.1/1, burst 4, at 12345.6 msgs/s\n",
                Files.readString(logs.resolve("native-pub-64-cmp-1.log")));

        CliRun without = CliRun.of("native-tool", "run", "relay", "--side", "publisher", "--size", "64", "--url", "x");
        assertEquals(2, without.exitCode, without.toString());
        assertTrue(without.err.startsWith("error: SYSTEM must be a system with a native tool: kafka, nats, rabbitmq, "
                + "rabbitmq-streams, redis, redis-streams, pulsar; got 'relay'"), without.err);
    }

    /** Runs {@code body} with the fixture's provider list visible to ServiceLoader, as a module jar's would be. */
    private static <T> T withFixture(Callable<T> body) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {FIXTURE.toUri().toURL()}, before)) {
            thread.setContextClassLoader(loader);
            return body.call();
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
