package dev.msgbench.cli.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** --backlog's refusals: each one line naming the flag and why. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BacklogOptionsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void aSystemThatStoresNothingRefusesABacklogSayingWhy() {
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--backlog", "1000", "--rate", "100", "--duration", "1s",
                "--output", dir.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --backlog: loopback keeps nothing for consumers that are held back, so no backlog can "
                + "build; use a system that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams) (see java -jar "
                + "bench-all.jar e2e --help)", run.err.lines().findFirst().orElse(""));
    }

    /** Refused before a broker starts, so that run FILE --dry-run refuses it too. */
    @Test
    void pubSubSystemsRefuseABacklogAndALaterConsumerBeforeAnyBrokerStarts() throws Exception {
        for (String system : new String[] {"nats", "redis"}) {
            CliRun backlog = CliRun.of("e2e", "--system", system, "--backlog", "1000", "--rate", "100", "--duration",
                    "1s", "--output", dir.resolve(system).toString());
            assertEquals(2, backlog.exitCode, backlog.toString());
            assertEquals("error: --backlog: " + system + " keeps nothing for consumers that are held back, so no "
                    + "backlog can build; use a system that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams) "
                    + "(see java -jar bench-all.jar e2e --help)", backlog.err.lines().findFirst().orElse(""));
            CliRun later = CliRun.of("throughput", "--system", system, "--consume-after-produce", "--messages", "10",
                    "--output", dir.resolve(system + "-later").toString());
            assertEquals(2, later.exitCode, later.toString());
            assertEquals("error: --consume-after-produce: " + system + " keeps nothing for consumers that subscribe "
                    + "later; use a system that stores messages (see java -jar bench-all.jar throughput --help)",
                    later.err.lines().findFirst().orElse(""));
        }
        Path file = dir.resolve("backlog.yaml");
        Files.writeString(file, "command: e2e\ndefaults: {rate: 100, duration: 1s, backlog: 50}\nmatrix:\n  system: [kafka, nats]\n");
        CliRun dry = CliRun.of("run", file.toString(), "--dry-run");
        assertEquals(2, dry.exitCode, dry.toString());
        assertTrue(dry.err.contains("--backlog: nats keeps nothing for consumers that are held back"), dry.err);
    }

    @Test
    void aBacklogThatIsNoNumberNorSizeIsRefused() {
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--backlog", "lots", "--rate", "100", "--duration", "1s",
                "--output", dir.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --backlog: 'lots' is not a size (examples: 100, 256B, 1KiB, 1MiB) (see java -jar "
                + "bench-all.jar e2e --help)", run.err.lines().findFirst().orElse(""));
    }

    @Test
    void aBacklogNeedsAConsumer() {
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--backlog", "1GiB", "--consumers", "0",
                "--messages", "100", "--output", dir.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --backlog needs at least one consumer, got --consumers 0 (see java -jar bench-all.jar "
                + "throughput --help)",
                run.err.lines().findFirst().orElse(""));
    }
}
