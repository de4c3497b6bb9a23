package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
                + "build; use a system that stores messages (Kafka, JetStream, RabbitMQ, Redis Streams)" + NL, run.err);
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
