package dev.msgbench.cli.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.msgbench.cli.CliRun;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** floor: the loopback ping-pong that e2e figures are compared with. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FloorCommandTest {

    private static final String NL = System.lineSeparator();

    @Test
    void aShortFloorPrintsTheRoundTripAndWritesItsFiguresForScripts(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("floor.json");
        CliRun run = CliRun.of("floor", "--size", "256B", "--rate", "2000", "--warmup", "100ms", "--duration", "500ms",
                "--json", json.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("  round trip   p50 "), run.out);
        assertTrue(run.out.contains("  sent 1,000, answered 1,000"), run.out);
        JsonNode figures = new ObjectMapper().readTree(json.toFile());
        assertEquals(1000, figures.get("answered").asLong());
        assertEquals(1000, figures.get("roundTripMs").get("count").asLong());
        assertTrue(figures.get("roundTripMs").get("p50").asDouble() > 0, figures.toString());
    }

    @Test
    void aMessageSmallerThanTheHeaderIsRefused() {
        CliRun run = CliRun.of("floor", "--size", "16B");
        assertEquals("error: --size must be from 32 B (the header) to 16 MiB, got 16 B"
                + " (see java -jar bench-all.jar floor --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void aRateOfZeroIsRefused() {
        CliRun run = CliRun.of("floor", "--rate", "0");
        assertEquals("error: --rate must be above 0 and at most 1,000,000 exchanges/s, got 0"
                + " (see java -jar bench-all.jar floor --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }
}
