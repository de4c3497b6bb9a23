package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Addresses that are not addresses, through the real command line: one line naming the flag,
 * exit 2, quickly. (Hostile workload files are WorkloadFileErrorsTest's.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MalformedUrlTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

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
