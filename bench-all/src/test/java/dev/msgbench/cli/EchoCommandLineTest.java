package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.echo.EchoRoute;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** --pattern echo and the responder command: the loopback system end to end, and every misuse as one line. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoCommandLineTest {

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void anEchoThroughTheLoopbackSystemComesBackOnceAndSaysItIsARoundTrip() throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--pattern", "echo", "--producers", "2", "--consumers", "2",
                "--rate", "1000", "--duration", "1s", "--warmup", "500ms", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(1_500, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r) + r.get("counts").get("duplicated").asLong());
        assertEquals("echo", r.get("settings").get("pattern").asText());
        assertEquals(EchoRoute.LATENCY, r.get("settings").get("latency").asText());
        assertEquals("in this JVM: a return publisher per producer stream", r.get("settings").get("responder").asText());
    }

    @Test
    @TakesSeconds
    void throughputTakesTheEchoPatternToo() throws Exception {
        Path out = dir.resolve("tp");
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--pattern", "echo", "--messages", "20000",
                "--size", "100", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals("echo", r.get("settings").get("pattern").asText());
    }

    @Test
    @TakesSeconds
    void aWorkloadFileSetsThePatternPerCellAndTheReportSaysWhichRunIsARoundTrip() throws Exception {
        Path file = dir.resolve("echo.yaml");
        Files.writeString(file, """
                name: echo
                defaults: {system: loopback, warmup: 200ms, duration: 500ms, rate: 400}
                cells:
                  - {label: one way}
                  - {label: round trip, pattern: echo}
                """);
        Path out = dir.resolve("run");
        CliRun run = CliRun.of("run", file.toString(), "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode oneWay = ResultFiles.json().readTree(out.resolve("01-one-way").resolve("result.json").toFile());
        JsonNode roundTrip = ResultFiles.json().readTree(out.resolve("02-round-trip").resolve("result.json").toFile());
        assertFalse(oneWay.get("settings").has("pattern"), oneWay.toString());
        assertEquals("echo", roundTrip.get("settings").get("pattern").asText());
        assertEquals(280, roundTrip.get("counts").get("received").asLong());
        String report = Files.readString(out.resolve("report.html"));
        assertTrue(report.contains("Round-trip latency over time: "), "the echo cell's chart title");
        assertTrue(report.contains("Latency over time: "), "the pubsub cell's chart title");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "e2e --system nats --pattern ping|error: Invalid value for option '--pattern': must be pubsub or echo, got 'ping'",
            "e2e --system nats --responder external|error: --responder external needs --pattern echo, got --pattern pubsub",
            "e2e --system nats --run-id x|error: --run-id needs --pattern echo, got --pattern pubsub",
            "e2e --system nats --pattern echo --responder external --run-id x|error: --responder external needs --url: the broker the responder on the other host uses too",
            "e2e --system nats --pattern echo --responder external --url nats://127.0.0.1:1|error: --responder external needs --run-id: the id the responder was started with",
            "e2e --system nats --pattern echo --run-id x|error: --run-id names the destinations for a responder elsewhere; it needs --responder external",
            "e2e --system nats --pattern echo --responder external --url nats://127.0.0.1:1 --run-id a.b|error: --run-id must be 1 to 100 letters, digits, '-' or '_' (it names topics, subjects, queues and keys), got 'a.b'",
            "e2e --system nats --pattern echo --nats-pattern request-reply|error: --pattern echo and --nats-pattern request-reply are two round trips; give one of them",
            "throughput --system loopback --pattern echo --consumers 0|error: --pattern echo needs at least one consumer to receive the echoes, got --consumers 0",
            "throughput --system nats --pattern echo --consumers 0|error: --pattern echo needs at least one consumer to receive the echoes, got --consumers 0",
            "e2e --system nats --pattern echo --keys random|error: --keys random does not work with --pattern echo: the responder publishes each message back as it came, without its key; measure keys one way; give --keys none",
            "e2e --system nats --pattern echo --topics 2 --producers 2|error: --pattern echo measures one topic with one subscription: --topics and --subscriptions-per-topic must be 1 with it (got 2 and 1)",
            "throughput --system kafka --pattern echo --subscriptions-per-topic 2|error: --pattern echo measures one topic with one subscription: --topics and --subscriptions-per-topic must be 1 with it (got 1 and 2)",
            "responder --system nats --run-id x|error: responder needs --url: the broker the measuring side uses",
            "responder --system loopback --run-id x|error: --system loopback runs inside one JVM: a responder needs a broker given with --url",
            "responder --system nats --url nats://127.0.0.1:1 --run-id x --producers 0|error: --producers must be at least 1, got 0",
            "responder --system nats --url nats://127.0.0.1:1 --run-id 'a b'|error: --run-id must be 1 to 100 letters, digits, '-' or '_' (it names topics, subjects, queues and keys), got 'a b'",
            "responder --system nats --url nats://127.0.0.1:1|error: Missing required option: '--run-id=ID'",
            "e2e --system nats --pattern echo --first-echo-timeout 5s|error: --first-echo-timeout waits for a responder elsewhere; it needs --responder external",
            "e2e --system nats --pattern echo --responder external --url nats://127.0.0.1:1 --run-id x --first-echo-timeout 0s|error: --first-echo-timeout must be longer than 0, got 0 ms",
            "responder --system nats --url nats://127.0.0.1:1 --run-id x --worker-index 1|error: --worker-index needs --workers, the number of workers of the measuring side",
            "responder --system nats --url nats://127.0.0.1:1 --run-id x --workers 2 --producers 1|error: --producers 1 cannot be split over --workers 2: give the measuring side's --producers, the total of all workers",
            "responder --system nats --url nats://127.0.0.1:1 --run-id x --workers 2 --producers 2 --worker-index 2|error: --worker-index must be from 0 to 1 (--workers 2), got 2"})
    void misuseIsOneLineAndExitCodeTwo(String commandLine, String expected) {
        String[] args = split(commandLine);
        CliRun run = CliRun.of(args);

        assertEquals(2, run.exitCode, run.toString());
        // picocli's own errors point at the command's help
        assertEquals(expected, run.err.strip().replace(" (see java -jar bench-all.jar " + args[0] + " --help)", ""),
                run.toString());
    }

    private static String[] split(String commandLine) {
        List<String> args = new ArrayList<>();
        for (String part : commandLine.split(" (?=(?:[^']*'[^']*')*[^']*$)")) {
            args.add(part.startsWith("'") ? part.substring(1, part.length() - 1) : part);
        }
        return args.toArray(new String[0]);
    }
}
