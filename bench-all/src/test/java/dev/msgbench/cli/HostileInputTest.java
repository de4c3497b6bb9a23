package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Input a new user (or a broken script) may give, through the real command line: workload files
 * that are empty, binary, deeply nested or huge, and addresses that are not addresses. Each is
 * one line naming the file or flag, exit 2, quickly, and nothing started.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileInputTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private final ScriptedCellRunner nothingRuns = new ScriptedCellRunner(cell -> {
        throw new AssertionError("a cell was run: " + cell.args());
    });

    private CliRun dryRun(Path file) {
        return CliRun.with(nothingRuns, "run", file.toString(), "--dry-run");
    }

    @Test
    void anEmptyWorkloadFileIsOneLine() throws Exception {
        Path file = Files.writeString(dir.resolve("empty.yaml"), "");
        CliRun run = dryRun(file);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ": the file is empty; see workloads/README.md for what a workload file holds" + NL,
                run.err);
    }

    @Test
    void aBinaryWorkloadFileIsOneLine() throws Exception {
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        Path file = Files.write(dir.resolve("binary.yaml"), noise);
        CliRun run = dryRun(file);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ": not UTF-8 text; a workload file is YAML (see workloads/README.md)" + NL, run.err);
    }

    @Test
    void aDeeplyNestedWorkloadFileIsOneLine() throws Exception {
        Path file = Files.writeString(dir.resolve("nested.yaml"), "defaults: " + "{a: ".repeat(5000) + "1"
                + "}".repeat(5000) + "\n");
        CliRun run = dryRun(file);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ": not valid YAML: Nesting Depth exceeded max 50" + NL, run.err);
    }

    @Test
    void aHugeWorkloadFileIsRefusedBeforeItIsParsed() throws Exception {
        // a 30 MiB file took the YAML parser four minutes to refuse
        Path file = Files.writeString(dir.resolve("huge.yaml"), "defaults: {rate: 5}\nx: '" + "a".repeat(30 << 20) + "'\n");
        CliRun run = dryRun(file);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ": 31,457,306 bytes is too large for a workload file (at most 1,048,576; the "
                + "shipped ones are a few KiB)" + NL, run.err);
    }

    @Test
    void anAliasBombIsRefusedAsUnknownKeysNotExpanded() throws Exception {
        Path file = Files.writeString(dir.resolve("bomb.yaml"), "a: &a [x, x, x, x, x, x, x, x, x]\n"
                + "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                + "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n");
        CliRun run = dryRun(file);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
    }

    @Test
    void aFolderGivenAsTheWorkloadFileIsOneLine() {
        CliRun run = dryRun(dir);
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + dir + ": a folder, not a workload file" + NL, run.err);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "kafka|::::|error: --bootstrap-servers: cannot use '::::': Invalid url in bootstrap.servers: ::::",
            "kafka|http://x|error: --bootstrap-servers: cannot use 'http://x': Invalid url in bootstrap.servers: http://x",
            "kafka|127.0.0.1:99999|error: --bootstrap-servers: cannot use '127.0.0.1:99999': Invalid port in bootstrap.servers: 127.0.0.1:99999",
            "nats|nats://|error: --url: 'nats://' is not a NATS server address (host:port or nats://host:port, comma-separated): java.net.URISyntaxException: Expected authority at index 7: nats://",
            "jetstream|nats://[::1|error: --url: 'nats://[::1' is not a NATS server address (host:port or nats://host:port, comma-separated): java.net.URISyntaxException: Expected closing bracket for IPv6 address at index 11: nats://[::1",
            "rabbitmq|amqp://u:p@h:notaport/v|error: --url must be amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST] or HOST:PORT, got 'amqp://u:p@h:notaport/v'",
            "rabbitmq|http://x|error: --url must be amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST] or HOST:PORT, got 'http://x'",
            "redis|redis://h:99999|error: --url must be host:port or redis://host:port for Redis, got 'redis://h:99999'",
            "redis|%%%|error: --url must be host:port or redis://host:port for Redis, got '%%%'",
            "redis-streams|redis://:secret@|error: --url must be host:port or redis://host:port for Redis, got 'redis://***@'",
    })
    void anAddressThatIsNotOneIsOneLineAndNoBrokerStarts(String system, String url, String expected) {
        // with --url nothing is started: the address is checked when the run connects
        CliRun run = CliRun.of("e2e", "--system", system, "--url", url, "--output", dir.resolve("out").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + NL, run.err);
    }
}
